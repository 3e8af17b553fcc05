// A client-side mirror of move legality, used only to suggest where a tapped or dragged
// card may go and to refuse obvious mistakes at once. The server stays authoritative:
// every action is still sent to it and its answer wins.
import { rank, suit } from "./cards.js";

// How many cards on top of a column form a movable same-suit run.
export function movableRun(column) {
  const up = column.up;
  if (!up.length) return 0;
  let count = 1;
  while (count < up.length && follows(up[up.length - count], up[up.length - count - 1])) count++;
  return count;
}

// True when `lower` sits on `upper` in a same-suit descending run.
export const follows = (lower, upper) => suit(lower) === suit(upper) && rank(lower) + 1 === rank(upper);

// Why a move is illegal (a rule-book code), or null when it is legal.
export function moveProblem(view, rules, from, to, count) {
  const source = view.columns[from];
  const target = view.columns[to];
  if (!source || !target) return "bad_column";
  if (from === to) return "same_column";
  if (count < 1 || count > source.down + source.up.length) return "bad_count";
  if (count > movableRun(source)) return "not_movable";
  const bottom = source.up[source.up.length - count];
  if (target.up.length) {
    return rank(target.up[target.up.length - 1]) === rank(bottom) + 1 ? null : "bad_target";
  }
  if (target.down) return rules.flip === "manual" ? null : "bad_target";
  if (count === source.up.length && !source.down) return "pointless";
  return null;
}

// Legal targets for the top `count` cards of column `from`, best first: onto a card of the
// same suit, then onto any card one rank higher, then into an empty column, and last onto
// a column whose top card is face down (duel preset: that card then stays hidden under
// them, so it is the least wanted place). Lower column numbers first within each kind.
export function targets(view, rules, from, count) {
  const source = view.columns[from];
  const bottom = source.up[source.up.length - count];
  const ranked = [];
  view.columns.forEach((target, to) => {
    if (moveProblem(view, rules, from, to, count)) return;
    const top = target.up[target.up.length - 1];
    const place = top ? (suit(top) === suit(bottom) ? 0 : 1) : target.down ? 3 : 2;
    ranked.push({ to, place });
  });
  ranked.sort((a, b) => a.place - b.place || a.to - b.to);
  return ranked.map((entry) => entry.to);
}

export function dealProblem(view, rules) {
  if (!view.stock) return "stock_empty";
  if (!rules.deal_over_empty && view.columns.some((c) => !c.up.length && !c.down)) {
    return "empty_column";
  }
  return null;
}

export function flipProblem(view, rules, col) {
  if (rules.flip !== "manual") return "nothing_to_flip";
  const column = view.columns[col];
  return column && column.down && !column.up.length ? null : "nothing_to_flip";
}

// The options a preset stands for (rule book table), overridden by explicit options.
const PRESETS = {
  classic: { flip: "auto", deal_over_empty: false, undo: "all", scoring: "windows" },
  relaxed: { flip: "auto", deal_over_empty: true, undo: "all", scoring: "windows" },
  duel: { flip: "manual", deal_over_empty: true, undo: "moves", scoring: "duel" },
};

export function resolveRules(rules = {}) {
  const preset = rules.preset in PRESETS ? rules.preset : "duel";
  return { ...PRESETS[preset], ...rules, preset };
}
