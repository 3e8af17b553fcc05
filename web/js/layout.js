// How big the cards are and how much they overlap, from the room the tableau has
// (docs/web.md, "Layout"). Pure: sizes in, sizes out, so it is tested on its own.

const RATIO = 1.4; // card height / width
const ROWS_SHOWN = 3.4; // the height holds at least this many card heights
export const TOUCH_STRIP = 24; // px of every face-up card a finger must be able to hit
const TOUCH_TARGET = 44; // px a finger hits comfortably: a face-up card's strip when there is room
// How much of a card shows under the next one when the column has the room (face-up,
// face-down): open, so that the cards fill the felt; a column too long closes up.
const OPEN_UP = 0.5;
const OPEN_DOWN = 0.15;
// A felt taller than even the longest column needs (an upright phone, whose width keeps
// the cards small; the first deals) opens every column further, face-up cards first,
// until the longest reaches the bottom: at most this much of a card shows.
const WIDE_UP = 0.85;
const WIDE_DOWN = 0.3;

// `width`, `height`: the tableau's box in CSS px. `columns`: the view's columns ({down, up}).
// `touch`: a coarse pointer or a phone-sized screen. The widest cards that fit are tried
// first; while the longest column does not fit even at its closest overlap, the cards get
// a little smaller (never below FLOOR, or the width's own size if that is smaller). If
// even that does not fit, the cards keep their full size and the tableau scrolls.
const FLOOR = 36;

export function layoutBoard({ width, height, columns, touch = false }) {
  const gap = width < 520 ? 2 : Math.min(14, Math.max(3, Math.round(width * 0.008)));
  const byWidth = Math.floor((width - 9 * gap) / 10);
  const byHeight = Math.floor(height / ROWS_SHOWN / RATIO);
  let cw = Math.max(20, Math.min(byWidth, byHeight));
  const widest = cw;
  const floor = Math.min(cw, FLOOR);
  for (;;) {
    const board = layoutAt(cw, gap, height, columns, touch);
    if (board.height <= height) return board;
    // Nothing fits (a finger's strips on a short screen): full-size cards, and it scrolls.
    if (cw <= floor) return layoutAt(widest, gap, height, columns, touch);
    cw = Math.max(floor, cw - Math.max(1, Math.round(cw * 0.04)));
  }
}

function layoutAt(cw, gap, height, columns, touch) {
  const ch = Math.round(cw * RATIO);
  const ix = Math.min(30, Math.max(12, Math.round(cw * 0.19))); // corner index height
  const pad = Math.max(2, Math.round(cw * 0.05));
  const strip = Math.max(touch ? TOUCH_STRIP : 0, ix + pad + 1); // least face-up overlap
  const sizes = {
    cw, ch, gap, ix, pad, strip,
    up: Math.max(strip, Math.round(ch * OPEN_UP), touch ? Math.min(TOUCH_TARGET, ch - 4) : 0),
    down: Math.max(4, Math.round(ch * OPEN_DOWN)),
    downMin: Math.max(3, Math.round(ch * 0.035)),
    small: cw < 56, // pips give way to one large pip
  };
  open(columns, height - ch, sizes);
  const placed = columns.map((column) => placeColumn(column, height, sizes));
  return { ...sizes, columns: placed, height: Math.max(0, ...placed.map((c) => c.height)) };
}

// Widens sizes.up, then sizes.down, as far as the longest column still fits in `room`.
function open(columns, room, s) {
  const gaps = columns.map(({ down, up }) => ({ d: up.length ? down : Math.max(0, down - 1), u: Math.max(0, up.length - 1) }));
  if (gaps.some(({ d, u }) => d * s.down + u * s.up > room)) return; // it closes up instead
  const widest = (cap, fit) => Math.floor(Math.min(cap, ...gaps.map(fit)) * 10) / 10;
  s.up = Math.max(s.up, widest(s.ch * WIDE_UP, ({ d, u }) => (u ? (room - d * s.down) / u : Infinity)));
  s.down = Math.max(s.down, widest(s.ch * WIDE_DOWN, ({ d, u }) => (d ? (room - u * s.up) / d : Infinity)));
}

// The tops of a column's cards (face-down first). Too long for the height: face-down cards
// close up first (down to downMin), then face-up ones (down to the strip); a column still
// too long after that overflows and the tableau scrolls (never below the strip).
export function placeColumn({ down, up }, height, s) {
  const ups = up.length;
  let gapDown = s.down;
  let gapUp = s.up;
  const room = height - s.ch;
  const downGaps = ups ? down : Math.max(0, down - 1);
  const upGaps = Math.max(0, ups - 1);
  const need = () => downGaps * gapDown + upGaps * gapUp;
  if (need() > room && downGaps) {
    gapDown = Math.max(s.downMin, (room - upGaps * gapUp) / downGaps);
  }
  if (need() > room && upGaps) {
    gapUp = Math.max(s.strip, (room - downGaps * gapDown) / upGaps);
  }
  const tops = [];
  for (let i = 0; i < down; i++) tops.push(i * gapDown);
  for (let i = 0; i < ups; i++) tops.push(downGaps * gapDown + i * gapUp);
  const last = tops.length ? tops[tops.length - 1] : 0;
  return { tops, gapDown, gapUp, height: last + s.ch };
}
