// Watching a finished game again from its record (rule book JSON: rules, layout, moves):
// a duel's, a solo or a daily game's. It names the player, opens on the deal before the
// first move, says what each step did ("9♠ onto 10♠, +2": the points by the game's own
// scoring scheme, from the server's `steps`), plays and pauses, and steps by keys
// (← →, Space, Home, End). Records are only given once a game is over (a duel's once both
// games are), so the client may know every card.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { createBoard } from "./board.js";
import { resolveRules } from "./rules.js";
import { rank, suit, label, symbol } from "./cards.js";
import "./history-words.js";

const STEP_MS = 600;

// The stylesheet of replays and of a player's past (history.css): not the first page's.
export const historyStyled = new Promise((resolve) => {
  if (document.querySelector("link[data-history]")) return resolve();
  const link = h("link", { rel: "stylesheet", href: "/css/history.css", "data-history": "1" });
  link.addEventListener("load", resolve);
  link.addEventListener("error", resolve); // unstyled beats blank
  document.head.append(link);
});

// record: the rule book record with its layout; player: whose game; steps: [{score, ms,
// by}] from /api/replays/… (the start first). A duel's replay frame carries no steps: with
// its match_id and player_id they are asked for (the points shown once they come).
export function replayView({ record, player, steps, subtitle, match_id: matchId, player_id: playerId, onClose }) {
  const rules = resolveRules(record.rules);
  const states = positions(record, rules);
  const last = states.length - 1;
  let at = 0;
  let timer = null;
  let scores = steps ?? null;
  const host = h("div.boardhost");
  const where = h("span.stepof", { id: "replay-at" });
  const said = h("p.stepsaid", { role: "status", id: "replay-step" });
  const board = createBoard({ root: host, rules, readOnly: true, onAction: async () => ({ ok: false }), title: t("replay") });
  const show = (index, animate = false) => {
    at = Math.max(0, Math.min(last, index));
    board.update(view(states[at]), { animate: animate && at > 0, action: record.moves?.[at - 1] });
    where.textContent = t("hxStepOf", { at, n: last });
    said.textContent = describe(states[at].info, at, scores);
    slider.value = String(at);
  };
  const button = (text, label, onclick, id) => h("button", { type: "button", "aria-label": label, title: label, onclick, id }, text);
  const playButton = button("▶", t("hxPlay"), () => toggle(), "replay-play");
  const toggle = () => {
    if (timer) return stop();
    if (at === last) show(0);
    timer = setInterval(() => (at < last && el.isConnected ? show(at + 1, true) : stop()), STEP_MS);
    playButton.textContent = "❚❚";
    playButton.setAttribute("aria-label", t("hxPause"));
    playButton.title = t("hxPause");
  };
  const stop = () => {
    clearInterval(timer);
    timer = null;
    playButton.textContent = "▶";
    playButton.setAttribute("aria-label", t("hxPlay"));
    playButton.title = t("hxPlay");
  };
  const slider = h("input", { type: "range", min: 0, max: last, value: 0, id: "replay-slider", "aria-label": t("hxStepOf", { at: "", n: last }).trim(),
    oninput: () => { stop(); show(Number(slider.value)); } });
  const close = () => { stop(); document.removeEventListener("keydown", onKey); onClose(); };
  function onKey(event) {
    if (!el.isConnected) return document.removeEventListener("keydown", onKey);
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest("input:not([type=range]), textarea, select, dialog")) return;
    const key = event.key;
    if (key === "ArrowLeft") { stop(); show(at - 1); }
    else if (key === "ArrowRight") { stop(); show(at + 1, true); }
    else if (key === " ") toggle();
    else if (key === "Home") { stop(); show(0); }
    else if (key === "End") { stop(); show(last); }
    else return;
    event.preventDefault();
  }
  document.addEventListener("keydown", onKey);
  const el = h("section.replay", { "aria-labelledby": "replay-h" },
    h("h1", { id: "replay-h" }, player ? t("hxReplayOf", { name: player }) : t("replay")),
    subtitle ? h("p.muted.replaysub", { id: "replay-sub" }, subtitle) : null,
    h("div.row.replaybar",
      button("«", t("first"), () => { stop(); show(0); }, "replay-first"),
      button("‹", t("prev"), () => { stop(); show(at - 1); }, "replay-prev"),
      playButton,
      button("›", t("next"), () => { stop(); show(at + 1, true); }, "replay-next"),
      button("»", t("last"), () => { stop(); show(last); }, "replay-last"),
      slider, where,
      button(t("back"), t("back"), close, "replay-back")),
    said,
    h("p.muted.keys", {}, t("hxKeys")),
    host);
  show(0);
  if (!scores && matchId && playerId) {
    duelSteps(matchId, playerId).then((found) => { scores = found; if (found) show(at); }).catch(() => {});
  }
  return el;
}

// A duel game's steps from the REST API: its game id from the match, then its replay.
async function duelSteps(matchId, playerId) {
  const get = async (path) => (await fetch(`/api${path}`, { headers: { Accept: "application/json" } })).json();
  const match = await get(`/matches/${matchId}`);
  const game = match.games?.find((g) => g.player_id === playerId);
  return game ? (await get(`/replays/duel/${game.game_id}`)).steps ?? null : null;
}

// "9♠" for a screen and a screen reader alike.
export const short = (card) => `${label(card)}${symbol(card)}`;

// What step `at` did, with the points it made when known ("9♠ onto 10♠, +2").
export function describe(info, at, scores) {
  if (!at || !info) return t("hxStepStart");
  const parts = [];
  if (info.op === "move") {
    parts.push(info.target ? t("hxOnto", { card: short(info.card), target: short(info.target) }) : t("hxToEmpty", { card: short(info.card) }));
  } else if (info.op === "deal") parts.push(t("hxDealt"));
  else if (info.op === "flip") parts.push(t("hxFlipped", { card: short(info.card) }));
  else if (info.op === "undo") parts.push(t("hxUndo"));
  for (const card of info.turned ?? []) parts.push(t("hxFlipped", { card: short(card) }));
  if (info.runs) parts.push(t("hxRunDone"));
  const step = scores?.[at];
  if (step?.by === "rescue") parts.push(t("hxByRescue"));
  if (step?.by === "auto_complete") parts.push(t("hxByAuto"));
  if (step && scores[at - 1]) {
    const delta = step.score - scores[at - 1].score;
    parts.push(delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : "±0");
  }
  return `${t("hxStepOf", { at, n: scores ? scores.length - 1 : at })}: ${parts.join(", ")}`;
}

// Every position of the game, the start first; each later one with `info`, what its step did.
export function positions(record, rules) {
  const layout = record.layout;
  let state = {
    columns: layout.tableau.map((c) => ({ down: [...c.down], up: [...c.up] })),
    stock: [...layout.stock],
    removed: [...(layout.removed || [])],
    info: null,
  };
  const out = [state];
  const history = [];
  for (const action of record.moves || []) {
    if (action.op === "undo") {
      state = { ...(history.pop() || state), info: { op: "undo" } };
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
  const info = { op: action.op, turned: [], runs: 0 };
  if (action.op === "move") {
    const run = columns[action.from].up.splice(-action.count);
    info.card = run[0];
    info.target = columns[action.to].up.at(-1) ?? null;
    columns[action.to].up.push(...run);
    touched.push(action.to, action.from);
  } else if (action.op === "deal") {
    stock.slice(0, 10).forEach((card, col) => columns[col].up.push(card));
    stock = stock.slice(10);
    touched.push(...columns.keys());
  } else if (action.op === "flip") {
    const column = columns[action.col];
    info.card = column.down.at(-1);
    column.up.push(column.down.pop());
  }
  for (const col of touched) settle(columns[col], removed, rules, info);
  return { columns, stock, removed, info };
}

function settle(column, removed, rules, info) {
  const up = column.up;
  if (up.length >= 13 && rank(up[up.length - 1]) === 1) {
    const run = up.slice(-13);
    if (run.every((card, i) => i === 0 || (suit(card) === suit(run[0]) && rank(card) + 1 === rank(run[i - 1])))) {
      up.splice(-13);
      removed.push(suit(run[0]));
      info.runs += 1;
    }
  }
  if (!up.length && column.down.length && rules.flip === "auto") {
    up.push(column.down.pop());
    info.turned.push(up.at(-1));
  }
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
