// One-off vendoring step (not part of any build): turns the React components of the npm
// package @letele/playing-cards (CC0-1.0; Adrian Kennard's cards, https://www.me.uk/cards/)
// back into plain SVG text and keeps the cards make_cards.py draws from.
//
//   npm pack @letele/playing-cards@0.1.0 && tar xzf letele-playing-cards-0.1.0.tgz
//   node web/art/extract_kennard.mjs package/dist/index.esm.js > web/art/kennard.json
import fs from "node:fs";

// Every court, every spade (one rank glyph per rank) and a two of each other suit (its pip).
const WANTED = [
  ..."SHDC".split("").flatMap((s) => ["J", "Q", "K"].map((r) => s + r)),
  ..."A2345678910".match(/10|./g).map((r) => `S${r}`),
  "H2", "D2", "C2",
];

const source = fs.readFileSync(process.argv[2], "utf8")
  .replace(/^import .*$/gm, "")
  .replace(/^export \{[^}]*\};?/gm, "");
const escape = (value) => String(value).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
const CAMEL_KEPT = new Set(["viewBox", "preserveAspectRatio", "patternUnits"]);
const attribute = (key) => ({ className: "class", xmlnsXlink: "xmlns:xlink", xlinkHref: "xlink:href" })[key]
  ?? (CAMEL_KEPT.has(key) ? key : key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
// A stand-in for React.createElement that writes SVG text.
const React = {
  createElement(tag, props, ...children) {
    let text = "";
    for (const [key, value] of Object.entries(props || {})) {
      if (value === undefined || value === null || key.startsWith("aria-")) continue;
      text += ` ${attribute(key)}="${escape(value)}"`;
    }
    return `<${tag}${text}>${children.flat().filter((c) => c != null && c !== false).join("")}</${tag}>`;
  },
};
const names = [...source.matchAll(/^const (Svg\w+) =/gm)].map((m) => m[1]);
const components = new Function("React", "_extends", `${source}\nreturn {${names.join(",")}};`)(React, Object.assign);
const cards = {};
for (const name of WANTED) cards[name] = components[`Svg${name}`]({});
process.stdout.write(`${JSON.stringify(cards, null, 0).replace(/","/g, "\",\n\"")}\n`);
