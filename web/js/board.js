// The playing surface: ten columns, the stock and the completed runs, drawn from the
// server's player view. Pointer (drag or tap), keyboard and screen reader play all end in
// one call, `onAction(action)`, whose promise resolves with the server's answer; the board
// only suggests, the server decides. Card sizes and overlaps come from layout.js and are
// worked out again whenever the tableau's box changes size.
//
// createBoard's parts (the keyboard and the actions below, the drawing in board-render.js,
// the pointer in board-drag.js) share one object, `b`: the state, the elements and the
// parts' functions, so that one part calls another's as `b.render()` or `b.act(...)`.
import { h, clear, announce, reducedMotion } from "./dom.js";
import { movableRun, moveProblem, targets, dealProblem, flipProblem } from "./rules.js";
import { t, cardName, reason } from "./i18n.js";
import { loadSprite } from "./face.js";
import { drawing, snapshot, play } from "./board-render.js";
import { pointer } from "./board-drag.js";

const NEWS = new Set(["seq_taken", "offline"]); // refusals said as news (refuse, below)

const SAY_MS = 4000; // a refusal stays this long in the status line

// trayHost / statusHost: where the stock and runs, and the status line, go (the table's
// heads-up display); without them they sit above and below the tableau.
export function createBoard({ root, rules, onAction, readOnly = false, title, trayHost, statusHost }) {
  const b = {
    rules, onAction, readOnly, trayHost,
    view: null,
    focus: { col: 0, index: 0 }, // index into up cards; -1 is the face-down or empty slot
    picked: null, // keyboard pick: {col, count}
    suggested: null, // the last hint's action: Enter plays it until anything else happens
    lit: null, // the last hint's action, lit up on the board until a new position
    pending: false,
    dragging: null, // cards in the air: {col, index, names} (board-drag.js)
    sizes: null,
    box: { width: 0, height: 0 },
  };

  loadSprite();
  const tableau = h("div.tableau", { role: "group", "aria-label": title || t("board") });
  const stockEl = h("div.stock");
  const runsEl = h("div.runs", { role: "list", "aria-label": t("removedRuns") });
  const tray = h("div.tray", stockEl, runsEl);
  const reasonEl = h("p.reason.statusline", { role: "status" });
  const surface = h("div.board", { class: readOnly ? "readonly" : "" },
    trayHost ? null : tray, tableau, statusHost ? null : reasonEl);
  clear(root, surface);
  if (trayHost) clear(trayHost, tray);
  if (statusHost) clear(statusHost, reasonEl);
  Object.assign(b, { tableau, stockEl, runsEl, tray, reasonEl, surface });
  Object.assign(b, drawing(b), keyboard(b), actions(b), pointer(b));

  surface.addEventListener("keydown", b.onKey);
  // Any key but Enter (and lone modifiers) after a hint drops its suggestion, wherever the focus.
  const forget = (e) => { if (e.key !== "Enter" && !MODIFIERS.has(e.key)) b.suggested = null; };
  document.addEventListener("keydown", forget, true);
  if (!readOnly) surface.addEventListener("pointerdown", b.onPointerDown);
  const resizes = new ResizeObserver(() => {
    if (b.view && (tableau.clientWidth !== b.box.width || tableau.clientHeight !== b.box.height)) b.render();
  });
  resizes.observe(tableau);

  function update(next, { action, animate = true } = {}) {
    b.suggested = b.lit = null; // a new position: the hint was for the old one
    const before = animate && !reducedMotion() ? snapshot(b, action) : null;
    b.view = next;
    b.render();
    if (before) play(b, before, action);
  }

  function setRules(next) { b.rules = next; }

  const { refuse, deal, flip, say, suggest, playSuggested, light } = b;
  return {
    update, refuse, deal, flip, say, suggest, playSuggested, light,
    // Nothing to undo is said, with the duel's reason when a deal, a flip or an uncovered
    // card stands in the way (its Undo looks disabled but answers a click). Decided in
    // its turn, as a tap is: an Undo tapped while my move is on its way undoes that move.
    undo: () => b.act(() => {
      if (b.view.can_undo) return { op: "undo" };
      refuse(b.rules?.undo === "moves" && b.view.actions ? "undo_barrier" : "nothing_to_undo");
      return null;
    }),
    // An action chosen when its turn comes (the solo Redo: what to redo is known once
    // the Undo before it is answered); `choose` returns null for nothing to send.
    later: (choose) => b.act(choose),
    setRules,
    focus: () => b.markFocus(true),
    get view() { return b.view; },
    get sizes() { return b.sizes; },
    destroy: () => { resizes.disconnect(); document.removeEventListener("keydown", forget, true); },
    el: surface,
  };
}

const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock"]);

function keyboard(b) {
  const { tableau } = b;

  // ---- focus and the keyboard
  function clampFocus() {
    const focus = b.focus;
    focus.col = Math.max(0, Math.min(9, focus.col));
    const column = b.view.columns[focus.col];
    if (!column.up.length) focus.index = -1;
    else focus.index = Math.max(0, Math.min(column.up.length - 1, focus.index));
  }

  function focusedEl() {
    return tableau.querySelector(`[data-col="${b.focus.col}"][data-index="${b.focus.index}"]`);
  }

  function markFocus(moveFocus) {
    for (const el of tableau.querySelectorAll("[tabindex='0']")) el.tabIndex = -1;
    const el = focusedEl() || tableau.querySelector("[role=button]");
    if (!el) return;
    el.tabIndex = 0;
    if (moveFocus) el.focus({ preventScroll: true });
  }

  function moveFocus(col, index) {
    b.focus = { col, index };
    clampFocus();
    markFocus(true);
  }

  function onKey(event) {
    if (!b.view || event.target.closest("button, input, select, textarea, a")) return;
    const key = event.key;
    const focus = b.focus;
    const inTableau = tableau.contains(event.target);
    if (inTableau && key === "Enter" && playSuggested()) event.preventDefault();
    else if (inTableau && key === "ArrowLeft") moveFocus((focus.col + 9) % 10, 99);
    else if (inTableau && key === "ArrowRight") moveFocus((focus.col + 1) % 10, 99);
    else if (inTableau && key === "ArrowUp") moveFocus(focus.col, focus.index - 1);
    else if (inTableau && key === "ArrowDown") moveFocus(focus.col, focus.index + 1);
    else if (inTableau && key === "Home") moveFocus(focus.col, 0);
    else if (inTableau && key === "End") moveFocus(focus.col, 99);
    else if (inTableau && key === "Enter") enter();
    else if (key === "Escape" && b.picked) cancelPick(true);
    else return;
    event.preventDefault();
  }

  function enter() {
    if (b.readOnly) return;
    const { col, index } = b.focus;
    const column = b.view.columns[col];
    const picked = b.picked;
    if (picked) {
      if (picked.col === col) return cancelPick(true);
      const move = { op: "move", from: picked.col, to: col, count: picked.count };
      cancelPick(false);
      return b.tryMove(move);
    }
    if (index < 0) {
      if (column.down) b.act({ op: "flip", col });
      return;
    }
    const count = column.up.length - index;
    if (count > movableRun(column)) return b.refuse("not_movable");
    b.picked = { col, count };
    const name = cardName(column.up[index]);
    announce(count > 1 ? t("picked", { card: name, count }) : t("pickedOne", { card: name }));
    b.render();
  }

  // A hint suggests its action; Enter right after it (nothing picked, the view unchanged,
  // no other key or pointer in between) plays it, checked by the mirror rules like any move.
  function suggest(action) { b.suggested = b.readOnly || !action ? null : action; }

  function playSuggested() {
    if (!b.suggested || b.picked || !b.view) return false;
    const action = b.suggested;
    b.suggested = null;
    if (action.op === "move") b.tryMove(action);
    else b.act(action);
    return true;
  }

  function cancelPick(say) {
    b.picked = null;
    if (say) announce(t("dropCancelled"));
    if (b.view) b.render();
  }

  return { clampFocus, focusedEl, markFocus, onKey, suggest, playSuggested };
}

function actions(b) {
  const { reasonEl } = b;
  let sayTimer = null;
  let tapCycle = null; // the last tap: {card, order, at}

  // A line under the heads-up display for what is said to everyone: refusals (fading)
  // and hints (until the next action). The live region says the same to screen readers.
  function say(text, { fade = false, kind = "" } = {}) {
    clearTimeout(sayTimer);
    reasonEl.textContent = text;
    reasonEl.className = `reason statusline ${kind}`;
    if (fade && text) sayTimer = setTimeout(() => { reasonEl.textContent = ""; }, SAY_MS);
  }

  // ---- actions
  // Flip and deal look at the board in their turn: pressed while a move is on its way,
  // they judge the board that move leaves, not the one before it.
  function flip(col) {
    act(() => {
      const { view } = b;
      const target = col ?? b.focus.col;
      const cols = [target, ...view.columns.keys()];
      const found = cols.find((c) => !flipProblem(view, b.rules, c));
      if (found !== undefined) return { op: "flip", col: found };
      refuse("nothing_to_flip");
      return null;
    });
  }

  function deal() {
    act(() => {
      const problem = dealProblem(b.view, b.rules);
      if (!problem) return { op: "deal" };
      refuse(problem);
      return null;
    });
  }

  function tryMove(move) {
    const problem = moveProblem(b.view, b.rules, move.from, move.to, move.count);
    if (problem) return refuse(problem);
    return act(move);
  }

  // Actions go to the server one at a time, in the order they were made. An action may
  // be given as a function, called when its turn comes (null: nothing to send).
  let chain = Promise.resolve();
  function act(action, options) {
    if (b.readOnly) return Promise.resolve(false);
    const run = chain.then(() => {
      const next = typeof action === "function" ? action() : action;
      return next ? perform(next, options) : false;
    });
    chain = run.catch(() => false);
    return run;
  }

  async function perform(action, { onReject } = {}) {
    b.pending = true;
    say("");
    try {
      const answer = await b.onAction(action);
      if (answer && answer.ok === false) {
        onReject?.();
        refuse(answer.code, answer.reason);
        return false;
      }
      return true;
    } finally {
      b.pending = false;
    }
  }

  function refuse(code, text) {
    const why = reason(code) || text || code;
    // A step another tab of mine took first, or a move not sent for want of a connection,
    // is news, not a rule broken: said as it is.
    const said = NEWS.has(code) ? why[0].toUpperCase() + why.slice(1) : t("rejected", { reason: why });
    say(said, { fade: true, kind: "refused" });
    const el = b.focusedEl();
    if (el && !reducedMotion()) el.animate?.(SHAKE, 240);
  }

  // Tap: the best legal place; tapping the same cards again tries the next place. Taps
  // made while an action is on its way wait for it, then look at the board as it is.
  function tap(col, index) {
    const column = b.view.columns[col];
    if (index < 0 || !column.up.length) {
      if (column.down && !column.up.length) flip(col);
      return;
    }
    const card = column.up[index];
    const depth = column.up.length - index; // the tapped card's place from the top
    let chosen = null;
    act(() => {
      const { view, rules } = b;
      const now = view.columns[col];
      if (now.up[now.up.length - depth] !== card) return null; // the board has changed
      const count = depth;
      if (count > movableRun(now)) {
        refuse("not_movable");
        return null;
      }
      const cycle = tapCycle && tapCycle.card === card && tapCycle.at === col && tapCycle.count === count;
      const order = cycle ? tapCycle.order : [...targets(view, rules, col, count), col];
      const start = order.indexOf(col);
      const next = [...order.slice(start + 1), ...order.slice(0, start)].find(
        (to) => !moveProblem(view, rules, col, to, count));
      if (next === undefined) {
        refuse("bad_target");
        return null;
      }
      chosen = { card, at: next, count, order };
      b.focus = { col: next, index: 99 };
      return { op: "move", from: col, to: next, count };
    }).then((ok) => { tapCycle = ok ? chosen : null; });
  }

  return { say, flip, deal, tryMove, act, refuse, tap };
}

const SHAKE = [
  { transform: "translateX(0)" }, { transform: "translateX(-6px)" },
  { transform: "translateX(6px)" }, { transform: "translateX(0)" },
];
