// The deal generator, version 1 (docs/deal-generator.md), for replays of finished games
// whose record names the deal by number: SHA-256 seed, xorshift128+, Fisher–Yates.
const MASK = (1n << 64n) - 1n;
const SIZES = [6, 6, 6, 6, 5, 5, 5, 5, 5, 5];
const SUITS = { 1: "s", 2: "sh", 4: "shdc" };

export async function dealLayout(number, suits) {
  const text = new TextEncoder().encode(`spider-duel/deal/v1/${suits}/${number}`);
  const seed = new Uint8Array(await crypto.subtle.digest("SHA-256", text));
  const word = (at) => seed.slice(at, at + 8).reduceRight((value, byte) => (value << 8n) | BigInt(byte), 0n);
  let s0 = word(0) || 1n;
  let s1 = word(8) || 2n;
  const next = () => {
    let a = s0;
    const b = s1;
    s0 = b;
    a ^= (a << 23n) & MASK;
    s1 = a ^ b ^ (a >> 17n) ^ (b >> 26n);
    return (s1 + b) & MASK;
  };
  const below = (bound) => {
    const big = BigInt(bound);
    const limit = (1n << 64n) - ((1n << 64n) % big);
    for (;;) {
      const value = next();
      if (value < limit) return Number(value % big);
    }
  };
  const faces = [];
  for (const suit of SUITS[suits]) {
    for (let run = 0; run < 8 / SUITS[suits].length; run++) {
      for (const rank of "A23456789TJQK") faces.push(rank + suit);
    }
  }
  for (let i = faces.length - 1; i > 0; i--) {
    const j = below(i + 1);
    [faces[i], faces[j]] = [faces[j], faces[i]];
  }
  let start = 0;
  const tableau = SIZES.map((size) => {
    const column = faces.slice(start, (start += size));
    return { down: column.slice(0, -1), up: column.slice(-1) };
  });
  return { tableau, stock: faces.slice(start), removed: [] };
}
