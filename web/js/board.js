// The playing surface: ten columns, the stock and the completed runs, drawn from the
// server's player view. Pointer (drag or tap), keyboard and screen reader play all end in
// one call, `onAction(action)`, whose promise resolves with the server's answer; the board
// only suggests, the server decides.
import { h, clear, announce, reducedMotion } from "./dom.js";
import { label, symbol, isRed } from "./cards.js";
import { movableRun, moveProblem, targets, dealProblem, flipProblem } from "./rules.js";
import { t, cardName, suitName, reason } from "./i18n.js";

const DRAG_THRESHOLD = 6; // pixels: below this a press is a tap, not a drag
const DOWN_GAP = 0.1; // card heights between two face-down cards
const UP_GAP = 0.27; // card heights between two face-up cards

export function createBoard({ root, rules, onAction, readOnly = false, title }) {
  let view = null;
  let focus = { col: 0, index: 0 }; // index into up cards; -1 is the face-down or empty slot
  let picked = null; // keyboard pick: {col, count}
  let tapCycle = null; // the last tap: {card, order, at}
  let pending = false;
  let drag = null;

  const tableau = h("div.tableau", { role: "group", "aria-label": title || t("board") });
  const stockEl = h("div.stock");
  const runsEl = h("div.runs", { role: "list", "aria-label": t("removedRuns") });
  const reasonEl = h("p.reason", { role: "alert" });
  const surface = h("div.board", { class: readOnly ? "readonly" : "" },
    h("div.top", stockEl, runsEl), tableau, reasonEl);
  clear(root, surface);

  surface.addEventListener("keydown", onKey);
  if (!readOnly) surface.addEventListener("pointerdown", onPointerDown);

  function update(next, { action, animate = true } = {}) {
    const before = animate && !reducedMotion() ? snapshot(action) : null;
    view = next;
    render();
    if (before) play(before, action);
  }

  // ---- drawing
  function render() {
    const hadFocus = surface.contains(document.activeElement);
    tableau.replaceChildren(...view.columns.map(renderColumn));
    renderStock();
    renderRuns();
    clampFocus();
    markFocus(hadFocus);
  }

  function renderColumn(column, col) {
    const n = col + 1;
    const el = h("div.column", {
      role: "group",
      "aria-label": t("column", { n }),
      dataset: { col },
    });
    if (picked && picked.col !== col && !moveProblem(view, rules, picked.col, col, picked.count)) {
      el.classList.add("target");
    }
    const gap = column.up.length > 12 ? (UP_GAP * 12) / column.up.length : UP_GAP;
    let y = 0;
    for (let i = 0; i < column.down; i++) {
      const isTop = i === column.down - 1 && !column.up.length;
      const back = h("div.card.back", { style: `--y:${y}` });
      if (isTop) {
        back.setAttribute("role", "button");
        back.setAttribute("aria-label", t("faceDownTop", { n }));
        back.dataset.col = col;
        back.dataset.index = -1;
        back.tabIndex = -1;
      } else {
        back.setAttribute("aria-hidden", "true");
      }
      el.append(back);
      y += DOWN_GAP;
    }
    if (!column.down && !column.up.length) {
      el.append(h("div.slot", {
        role: "button", tabindex: -1, style: "--y:0",
        "aria-label": t("emptyColumn", { n }), dataset: { col, index: -1 },
      }));
    }
    const movableFrom = column.up.length - movableRun(column);
    column.up.forEach((name, i) => {
      const card = h("div.card", {
        role: "button",
        tabindex: -1,
        style: `--y:${y}`,
        "aria-label": t("cardIn", { card: cardName(name), n }),
        dataset: { col, index: i, card: name },
        class: `${isRed(name) ? "red" : "black"}${i >= movableFrom ? " movable" : ""}`,
      },
      h("span.corner", { "aria-hidden": "true" }, label(name), h("span", {}, symbol(name))),
      h("span.pip", { "aria-hidden": "true" }, symbol(name)));
      if (picked && picked.col === col && i >= column.up.length - picked.count) {
        card.classList.add("picked");
      }
      el.append(card);
      y += gap;
    });
    el.style.setProperty("--h", y + 1);
    return el;
  }

  function renderStock() {
    const deals = view.deals_left;
    const name = deals ? t("stock", { n: deals }) : t("stockEmpty");
    const piles = Array.from({ length: deals }, (_, i) =>
      h("div.card.back.pile", { style: `--i:${i}`, "aria-hidden": "true" }));
    clear(stockEl, h("div.pilebox", {
      role: "button", tabindex: readOnly ? -1 : 0, "aria-label": name,
      "aria-disabled": readOnly || !deals ? "true" : null,
      dataset: { stock: "1" }, title: readOnly ? name : `${name} — ${t("keySpace")}`,
      onclick: () => !readOnly && act({ op: "deal" }),
      onkeydown: (e) => {
        if (e.key === "Enter") { e.preventDefault(); e.stopPropagation(); if (!readOnly) act({ op: "deal" }); }
      },
    }, piles, deals ? null : h("div.slot.small", { "aria-hidden": "true" })));
  }

  function renderRuns() {
    runsEl.replaceChildren(...view.removed.map((code, i) =>
      h("div.run", {
        role: "listitem", dataset: { i }, class: code === "h" || code === "d" ? "red" : "black",
        title: suitName(code),
      }, h("span", { "aria-hidden": "true" }, `K${symbol(`K${code}`)}`),
      h("span.sr", {}, `${t("removedRuns")}: ${suitName(code)}`))));
  }

  // ---- focus and the keyboard
  function clampFocus() {
    focus.col = Math.max(0, Math.min(9, focus.col));
    const column = view.columns[focus.col];
    if (!column.up.length) focus.index = -1;
    else focus.index = Math.max(0, Math.min(column.up.length - 1, focus.index));
  }

  function focusedEl() {
    return tableau.querySelector(`[data-col="${focus.col}"][data-index="${focus.index}"]`);
  }

  function markFocus(moveFocus) {
    for (const el of tableau.querySelectorAll("[tabindex='0']")) el.tabIndex = -1;
    const el = focusedEl() || tableau.querySelector("[role=button]");
    if (!el) return;
    el.tabIndex = 0;
    if (moveFocus) el.focus({ preventScroll: true });
  }

  function moveFocus(col, index) {
    focus = { col, index };
    clampFocus();
    markFocus(true);
  }

  function onKey(event) {
    if (!view || event.target.closest("button, input, select, textarea, a")) return;
    const key = event.key;
    const inTableau = tableau.contains(event.target);
    if (inTableau && key === "ArrowLeft") moveFocus((focus.col + 9) % 10, 99);
    else if (inTableau && key === "ArrowRight") moveFocus((focus.col + 1) % 10, 99);
    else if (inTableau && key === "ArrowUp") moveFocus(focus.col, focus.index - 1);
    else if (inTableau && key === "ArrowDown") moveFocus(focus.col, focus.index + 1);
    else if (inTableau && key === "Home") moveFocus(focus.col, 0);
    else if (inTableau && key === "End") moveFocus(focus.col, 99);
    else if (inTableau && key === "Enter") enter();
    else if (key === "Escape" && picked) cancelPick(true);
    else return;
    event.preventDefault();
  }

  function enter() {
    if (readOnly) return;
    const { col, index } = focus;
    const column = view.columns[col];
    if (picked) {
      if (picked.col === col) return cancelPick(true);
      const move = { op: "move", from: picked.col, to: col, count: picked.count };
      cancelPick(false);
      return tryMove(move);
    }
    if (index < 0) {
      if (column.down) act({ op: "flip", col });
      return;
    }
    const count = column.up.length - index;
    if (count > movableRun(column)) return refuse("not_movable");
    picked = { col, count };
    const name = cardName(column.up[index]);
    announce(count > 1 ? t("picked", { card: name, count }) : t("pickedOne", { card: name }));
    render();
  }

  function cancelPick(say) {
    picked = null;
    if (say) announce(t("dropCancelled"));
    if (view) render();
  }

  // ---- actions
  function flip(col) {
    const target = col ?? focus.col;
    const cols = [target, ...view.columns.keys()];
    const found = cols.find((c) => !flipProblem(view, rules, c));
    if (found === undefined) return refuse("nothing_to_flip");
    act({ op: "flip", col: found });
  }

  function deal() {
    const problem = dealProblem(view, rules);
    if (problem) return refuse(problem);
    act({ op: "deal" });
  }

  function tryMove(move) {
    const problem = moveProblem(view, rules, move.from, move.to, move.count);
    if (problem) return refuse(problem);
    return act(move);
  }

  // Actions go to the server one at a time, in the order they were made. An action may
  // be given as a function, called when its turn comes (null: nothing to send).
  let chain = Promise.resolve();
  function act(action, options) {
    if (readOnly) return Promise.resolve(false);
    const run = chain.then(() => {
      const next = typeof action === "function" ? action() : action;
      return next ? perform(next, options) : false;
    });
    chain = run.catch(() => false);
    return run;
  }

  async function perform(action, { onReject } = {}) {
    pending = true;
    reasonEl.textContent = "";
    try {
      const answer = await onAction(action);
      if (answer && answer.ok === false) {
        onReject?.();
        refuse(answer.code, answer.reason);
        return false;
      }
      return true;
    } finally {
      pending = false;
    }
  }

  function refuse(code, text) {
    const why = reason(code) || text || code;
    const message = t("rejected", { reason: why });
    reasonEl.textContent = message;
    reasonEl.classList.remove("show");
    void reasonEl.offsetWidth; // restart the fade
    reasonEl.classList.add("show");
    const el = focusedEl();
    if (el && !reducedMotion()) el.animate?.(SHAKE, 240);
  }

  // Tap: the best legal place; tapping the same cards again tries the next place. Taps
  // made while an action is on its way wait for it, then look at the board as it is.
  function tap(col, index) {
    const column = view.columns[col];
    if (index < 0 || !column.up.length) {
      if (column.down && !column.up.length) flip(col);
      return;
    }
    const card = column.up[index];
    const depth = column.up.length - index; // the tapped card's place from the top
    let chosen = null;
    act(() => {
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
      focus = { col: next, index: 99 };
      return { op: "move", from: col, to: next, count };
    }).then((ok) => { tapCycle = ok ? chosen : null; });
  }

  // ---- pointer: drag or tap
  function onPointerDown(event) {
    if (event.button > 0) return;
    const el = event.target.closest("[data-col][data-index]");
    if (!el || !tableau.contains(el)) return;
    const col = Number(el.dataset.col);
    const index = Number(el.dataset.index);
    drag = { col, index, x: event.clientX, y: event.clientY, started: false, id: event.pointerId };
    focus = { col, index };
    try {
      surface.setPointerCapture(event.pointerId); // keep the drag when the finger leaves
    } catch {
      // no such active pointer (synthetic events): the listeners below still work
    }
    surface.addEventListener("pointermove", onPointerMove);
    surface.addEventListener("pointerup", onPointerUp);
    surface.addEventListener("pointercancel", onPointerCancel);
  }

  function onPointerMove(event) {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.started) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      if (!startDrag()) return;
    }
    drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
    const over = columnAt(event.clientX, event.clientY);
    for (const c of tableau.children) c.classList.toggle("over", c === over);
  }

  function startDrag() {
    const column = view.columns[drag.col];
    const count = column.up.length - drag.index;
    if (pending || drag.index < 0 || count > movableRun(column)) {
      drag.started = true; // a drag that cannot carry anything; ends as nothing
      drag.ghost = h("div");
      drag.dead = true;
      return true;
    }
    const cards = [...tableau.children[drag.col].querySelectorAll(".card:not(.back)")]
      .slice(drag.index);
    const ghost = h("div.ghost", { "aria-hidden": "true" });
    const origin = cards.map((c) => c.getBoundingClientRect());
    cards.forEach((c, i) => {
      const copy = c.cloneNode(true);
      copy.removeAttribute("role");
      copy.removeAttribute("aria-label");
      copy.removeAttribute("tabindex");
      copy.style.left = `${origin[i].left}px`;
      copy.style.top = `${origin[i].top}px`;
      copy.style.width = `${origin[i].width}px`;
      copy.style.height = `${origin[i].height}px`;
      ghost.append(copy);
      c.classList.add("lifted");
    });
    document.body.append(ghost);
    Object.assign(drag, { started: true, ghost, cards, count });
    for (const to of targets(view, rules, drag.col, count)) tableau.children[to].classList.add("target");
    return true;
  }

  function columnAt(x, y) {
    const hit = document.elementsFromPoint(x, y).find((el) => el.classList?.contains("column"));
    if (hit) return hit;
    // Between or below the columns: the column whose horizontal span holds x.
    return [...tableau.children].find((c) => {
      const r = c.getBoundingClientRect();
      return x >= r.left && x <= r.right && y >= r.top;
    });
  }

  function endPointer() {
    surface.removeEventListener("pointermove", onPointerMove);
    surface.removeEventListener("pointerup", onPointerUp);
    surface.removeEventListener("pointercancel", onPointerCancel);
    for (const c of tableau.children) c.classList.remove("over", "target");
  }

  function onPointerCancel() {
    endPointer();
    if (drag?.started && !drag.dead) snapBack(drag);
    drag = null;
  }

  async function onPointerUp(event) {
    endPointer();
    const current = drag;
    drag = null;
    if (!current) return;
    if (!current.started) return tap(current.col, current.index);
    if (current.dead) return;
    const over = columnAt(event.clientX, event.clientY);
    const to = over ? Number(over.dataset.col) : current.col;
    if (to === current.col) return snapBack(current);
    const move = { op: "move", from: current.col, to, count: current.count };
    const problem = moveProblem(view, rules, move.from, move.to, move.count);
    if (problem) {
      snapBack(current);
      return refuse(problem);
    }
    focus = { col: to, index: 99 };
    const ok = await act(move, { onReject: () => snapBack(current) });
    if (ok) current.ghost.remove();
  }

  function snapBack(current) {
    const { ghost, cards } = current;
    const done = () => {
      ghost.remove();
      cards.forEach((c) => c.classList.remove("lifted"));
    };
    if (reducedMotion() || !ghost.animate) return done();
    ghost.animate([{ transform: ghost.style.transform }, { transform: "translate(0, 0)" }],
      { duration: 180, easing: "ease-out" }).finished.then(done, done);
    ghost.style.transform = "translate(0, 0)";
  }

  // ---- animation (FLIP: first, last, invert, play)
  function snapshot(action) {
    if (!view || !action) return null;
    const rects = new Map();
    if (action.op === "move") {
      const lifted = document.querySelector(".ghost");
      const source = lifted ? [...lifted.children]
        : [...tableau.children[action.from].querySelectorAll(".card:not(.back)")]
          .slice(-action.count);
      source.forEach((el, i) => rects.set(i, el.getBoundingClientRect()));
    } else if (action.op === "deal") {
      rects.set("stock", stockEl.getBoundingClientRect());
    }
    return rects;
  }

  function play(before, action) {
    const moving = [];
    if (action.op === "move") {
      const cards = [...tableau.children[action.to].querySelectorAll(".card:not(.back)")];
      // After a completed run the moved cards may be gone; animate what is still there.
      cards.slice(-action.count).forEach((el, i) => before.has(i) && moving.push([el, before.get(i)]));
    } else if (action.op === "deal") {
      const from = before.get("stock");
      for (const column of tableau.children) {
        const last = column.querySelector(".card:not(.back):last-child");
        if (last) moving.push([last, from]);
      }
    }
    moving.forEach(([el, from], i) => {
      const to = el.getBoundingClientRect();
      const dx = from.left - to.left;
      const dy = from.top - to.top;
      el.animate?.([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
        { duration: 200, delay: action.op === "deal" ? i * 30 : 0, easing: "ease-out", fill: "backwards" });
    });
  }

  function setRules(next) { rules = next; }

  return {
    update, refuse, deal, flip,
    undo: () => act({ op: "undo" }),
    setRules,
    focus: () => markFocus(true),
    get view() { return view; },
    el: surface,
  };
}

const SHAKE = [
  { transform: "translateX(0)" }, { transform: "translateX(-6px)" },
  { transform: "translateX(6px)" }, { transform: "translateX(0)" },
];

