// Cards as the server names them: rank + suit, "Ks", "Th", "As".
export const RANKS = "A23456789TJQK";
export const SUITS = "shdc";
export const SYMBOLS = { s: "♠", h: "♥", d: "♦", c: "♣" };
export const RED = new Set(["h", "d"]);

export const rank = (name) => RANKS.indexOf(name[0]) + 1;
export const suit = (name) => name[1];
export const label = (name) => (name[0] === "T" ? "10" : name[0]);
export const symbol = (name) => SYMBOLS[name[1]];
export const isRed = (name) => RED.has(name[1]);
