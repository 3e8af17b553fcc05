// Watching a finished game again from its record (rule book JSON: rules, layout, moves).
// The record is only given once the match is over, so the client may know every card.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { createBoard } from "./board.js";
import { resolveRules } from "./rules.js";
import { rank, suit } from "./cards.js";

export function replayView({ record, onClose }) {
  const rules = resolveRules(record.rules);
  const states = positions(record, rules);
  let at = states.length - 1;
  let timer = null;
  const host = h("div.boardhost");
  const where = h("span", { role: "status", id: "replay-at" });
  const board = createBoard({ root: host, rules, readOnly: true, onAction: async () => ({ ok: false }), title: t("replay") });
  const show = (index, animate = false) => {
    at = Math.max(0, Math.min(states.length - 1, index));
    board.update(view(states[at]), { animate: animate && at > 0, action: record.moves?.[at - 1] });
    where.textContent = `${at} / ${states.length - 1}`;
  };
  const button = (text, label, onclick) => h("button", { type: "button", "aria-label": label, title: label, onclick }, text);
  const playButton = button("▶▶", t("play"), () => {
    if (timer) return stop();
    if (at === states.length - 1) show(0);
    timer = setInterval(() => (at < states.length - 1 ? show(at + 1, true) : stop()), 500);
    playButton.textContent = "❚❚";
  });
  const stop = () => {
    clearInterval(timer);
    timer = null;
    playButton.textContent = "▶▶";
  };
  const el = h("section.replay", { "aria-label": t("replay") },
    h("h1", {}, t("replay")),
    h("div.row",
      button("«", t("first"), () => show(0)),
      button("‹", t("prev"), () => show(at - 1, false)),
      button("›", t("next"), () => show(at + 1, true)),
      button("»", t("last"), () => show(states.length - 1)),
      playButton,
      where,
      button(t("back"), t("back"), () => { stop(); onClose(); })),
    host);
  show(at);
  return el;
}

// Every position of the game, the start first.
function positions(record, rules) {
  const layout = record.layout;
  let state = {
    columns: layout.tableau.map((c) => ({ down: [...c.down], up: [...c.up] })),
    stock: [...layout.stock],
    removed: [...(layout.removed || [])],
  };
  const out = [state];
  const history = [];
  for (const action of record.moves || []) {
    if (action.op === "undo") {
      state = history.pop() || state;
    } else {
      history.push(state);
      state = apply(state, action, rules);
    }
    out.push(state);
  }
  return out;
}

function apply(state, action, rules) {
  const columns = state.columns.map((c) => ({ down: [...c.down], up: [...c.up] }));
  let stock = state.stock;
  const removed = [...state.removed];
  const touched = [];
  if (action.op === "move") {
    const run = columns[action.from].up.splice(-action.count);
    columns[action.to].up.push(...run);
    touched.push(action.to, action.from);
  } else if (action.op === "deal") {
    stock.slice(0, 10).forEach((card, col) => columns[col].up.push(card));
    stock = stock.slice(10);
    touched.push(...columns.keys());
  } else if (action.op === "flip") {
    const column = columns[action.col];
    column.up.push(column.down.pop());
  }
  for (const col of touched) settle(columns[col], removed, rules);
  return { columns, stock, removed };
}

function settle(column, removed, rules) {
  const up = column.up;
  if (up.length >= 13 && rank(up[up.length - 1]) === 1) {
    const run = up.slice(-13);
    if (run.every((card, i) => i === 0 || (suit(card) === suit(run[0]) && rank(card) + 1 === rank(run[i - 1])))) {
      up.splice(-13);
      removed.push(suit(run[0]));
    }
  }
  if (!up.length && column.down.length && rules.flip === "auto") up.push(column.down.pop());
}

function view(state) {
  return {
    columns: state.columns.map((c) => ({ down: c.down.length, up: c.up })),
    stock: state.stock.length,
    deals_left: Math.ceil(state.stock.length / 10),
    removed: state.removed,
    status: state.removed.length >= 8 ? "won" : "playing",
    actions: 0,
    can_undo: false,
  };
}
