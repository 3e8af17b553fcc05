// The playing surface: ten columns, the stock and the completed runs, drawn from the
// server's player view. Pointer (drag or tap), keyboard and screen reader play all end in
// one call, `onAction(action)`, whose promise resolves with the server's answer; the board
// only suggests, the server decides. Card sizes and overlaps come from layout.js and are
// worked out again whenever the tableau's box changes size.
import { h, clear, announce, reducedMotion } from "./dom.js";
import { isRed } from "./cards.js";
import { movableRun, moveProblem, targets, dealProblem, flipProblem } from "./rules.js";
import { t, cardName, suitName, reason } from "./i18n.js";
import { layoutBoard } from "./layout.js";
import { faceHtml, icon, loadSprite } from "./face.js";

const DRAG_THRESHOLD = 6; // pixels: below this a press is a tap, not a drag
const SAY_MS = 4000; // a refusal stays this long in the status line

// A phone-sized screen counts as touch even with a mouse: its cards are finger-sized anyway.
const touchScreen = () => matchMedia("(pointer: coarse)").matches || innerWidth < 600 || innerHeight < 500;

// trayHost / statusHost: where the stock and runs, and the status line, go (the table's
// heads-up display); without them they sit above and below the tableau.
export function createBoard({ root, rules, onAction, readOnly = false, title, trayHost, statusHost }) {
  let view = null;
  let focus = { col: 0, index: 0 }; // index into up cards; -1 is the face-down or empty slot
  let picked = null; // keyboard pick: {col, count}
  let suggested = null; // the last hint's action: Enter plays it until anything else happens
  let lit = null; // the last hint's action, lit up on the board until a new position
  let tapCycle = null; // the last tap: {card, order, at}
  let pending = false;
  let drag = null;
  let sizes = null;
  let box = { width: 0, height: 0 };
  let sayTimer = null;

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

  surface.addEventListener("keydown", onKey);
  // Any key but Enter (and lone modifiers) after a hint drops its suggestion, wherever the focus.
  const forget = (e) => { if (e.key !== "Enter" && !MODIFIERS.has(e.key)) suggested = null; };
  document.addEventListener("keydown", forget, true);
  if (!readOnly) surface.addEventListener("pointerdown", onPointerDown);
  const resizes = new ResizeObserver(() => {
    if (view && (tableau.clientWidth !== box.width || tableau.clientHeight !== box.height)) render();
  });
  resizes.observe(tableau);

  function update(next, { action, animate = true } = {}) {
    suggested = lit = null; // a new position: the hint was for the old one
    const before = animate && !reducedMotion() ? snapshot(action) : null;
    view = next;
    render();
    if (before) play(before, action);
  }

  // ---- drawing
  function render() {
    const hadFocus = surface.contains(document.activeElement);
    box = { width: tableau.clientWidth, height: tableau.clientHeight };
    // The tableau's top padding and a few pixels of felt under the longest column.
    const room = { width: box.width, height: box.height - 8 };
    sizes = layoutBoard({ ...room, columns: view.columns, touch: touchScreen() });
    const vars = { "--cw": sizes.cw, "--ch": sizes.ch, "--gap": sizes.gap, "--ix": sizes.ix, "--pad": sizes.pad };
    for (const [name, value] of Object.entries(vars)) surface.style.setProperty(name, `${value}px`);
    if (trayHost) for (const [name, value] of Object.entries(vars)) tray.style.setProperty(name, `${value}px`);
    surface.classList.toggle("small", sizes.small);
    tableau.replaceChildren(...view.columns.map(renderColumn));
    renderStock();
    renderRuns();
    markHint();
    clampFocus();
    markFocus(hadFocus);
  }

  // A hint lights up its cards and target (or the card to turn, or the stock) for a
  // moment. The board keeps what it lit and lights it again on every redraw: on a phone
  // the hint's words resize the tableau, whose redraw dropped the light at once.
  function light(action, ms = 2500) {
    lit = action;
    markHint();
    setTimeout(() => { if (lit === action) { lit = null; markHint(); } }, ms);
  }

  function markHint() {
    for (const el of [...tableau.querySelectorAll(".hinted"), ...stockEl.querySelectorAll(".hinted")]) el.classList.remove("hinted");
    const a = lit;
    if (!a) return;
    const column = (c) => tableau.querySelector(`.column[data-col="${c}"]`);
    const shown = a.op === "move" ? [...[...column(a.from)?.querySelectorAll(".card:not(.back)") ?? []].slice(-a.count), column(a.to)]
      : a.op === "flip" ? [column(a.col)?.querySelector(".back[role=button]")]
        : a.op === "deal" ? [stockEl.querySelector(".pilebox")] : [];
    for (const el of shown) el?.classList.add("hinted");
  }

  function renderColumn(column, col) {
    const n = col + 1;
    const place = sizes.columns[col];
    const el = h("div.column", {
      role: "group",
      "aria-label": t("column", { n }),
      dataset: { col },
      style: `height:${place.height}px`,
    });
    if (picked && picked.col !== col && !moveProblem(view, rules, picked.col, col, picked.count)) {
      el.classList.add("target");
    }
    const top = (i) => `top:${place.tops[i]}px`;
    for (let i = 0; i < column.down; i++) {
      const isTop = i === column.down - 1 && !column.up.length;
      const back = h("div.card.back", { style: top(i) });
      if (isTop) {
        back.setAttribute("role", "button");
        back.setAttribute("aria-label", t("faceDownTop", { n }));
        back.dataset.col = col;
        back.dataset.index = -1;
        back.tabIndex = -1;
        if (rules.flip === "manual" && !readOnly) {
          // A face-down top card is turned by a tap (duel preset): say so on the card.
          back.classList.add("turnable");
          back.title = t("tapToTurn");
          back.append(icon("turn"));
        }
      } else {
        back.setAttribute("aria-hidden", "true");
      }
      el.append(back);
    }
    if (!column.down && !column.up.length) {
      el.append(h("div.slot", {
        role: "button", tabindex: -1, style: "top:0",
        "aria-label": t("emptyColumn", { n }), dataset: { col, index: -1 },
      }));
    }
    const movableFrom = column.up.length - movableRun(column);
    column.up.forEach((name, i) => {
      const card = h("div.card.face", {
        role: "button",
        tabindex: -1,
        style: top(column.down + i),
        "aria-label": t("cardIn", { card: cardName(name), n }),
        dataset: { col, index: i, card: name },
        class: `${isRed(name) ? "red" : "black"}${i >= movableFrom ? " movable" : ""}`,
      });
      card.innerHTML = faceHtml(name, sizes.small);
      if (picked && picked.col === col && i >= column.up.length - picked.count) {
        card.classList.add("picked");
      }
      el.append(card);
    });
    return el;
  }

  function renderStock() {
    const deals = view.deals_left;
    const name = deals ? t("stock", { n: deals }) : t("stockEmpty");
    const piles = Array.from({ length: deals }, (_, i) =>
      h("div.mini.back.pile", { style: `--i:${i}`, "aria-hidden": "true" }));
    clear(stockEl, h("div.pilebox", {
      role: "button", tabindex: readOnly ? -1 : 0, "aria-label": name,
      "aria-disabled": readOnly || !deals ? "true" : null,
      style: `--n:${Math.max(1, deals)}`,
      dataset: { stock: "1" }, title: readOnly ? name : `${name} — ${t("keySpace")}`,
      onclick: () => !readOnly && act({ op: "deal" }),
      onkeydown: (e) => {
        if (e.key === "Enter") { e.preventDefault(); e.stopPropagation(); if (!readOnly) act({ op: "deal" }); }
      },
    }, piles, deals ? null : h("div.mini.slot", { "aria-hidden": "true" })));
  }

  // Each completed run is a small stack showing its king, as on the duel site.
  function renderRuns() {
    runsEl.style.setProperty("--n", Math.max(1, view.removed.length));
    runsEl.replaceChildren(...view.removed.map((code, i) => {
      const run = h("div.mini.run.face", {
        role: "listitem", dataset: { i }, style: `--i:${i}`,
        class: code === "h" || code === "d" ? "red" : "black", title: suitName(code),
      }, h("span.sr", {}, `${t("removedRuns")}: ${suitName(code)}`));
      run.insertAdjacentHTML("afterbegin", faceHtml(`K${code}`, true));
      return run;
    }));
  }

  // A line under the heads-up display for what is said to everyone: refusals (fading)
  // and hints (until the next action). The live region says the same to screen readers.
  function say(text, { fade = false, kind = "" } = {}) {
    clearTimeout(sayTimer);
    reasonEl.textContent = text;
    reasonEl.className = `reason statusline ${kind}`;
    if (fade && text) sayTimer = setTimeout(() => { reasonEl.textContent = ""; }, SAY_MS);
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
    if (inTableau && key === "Enter" && playSuggested()) event.preventDefault();
    else if (inTableau && key === "ArrowLeft") moveFocus((focus.col + 9) % 10, 99);
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

  // A hint suggests its action; Enter right after it (nothing picked, the view unchanged,
  // no other key or pointer in between) plays it, checked by the mirror rules like any move.
  function suggest(action) { suggested = readOnly || !action ? null : action; }

  function playSuggested() {
    if (!suggested || picked || !view) return false;
    const action = suggested;
    suggested = null;
    if (action.op === "move") tryMove(action);
    else act(action);
    return true;
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
    say("");
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
    // A step another tab of mine took first is news, not a rule broken: said as it is.
    const said = code === "seq_taken" ? why[0].toUpperCase() + why.slice(1) : t("rejected", { reason: why });
    say(said, { fade: true, kind: "refused" });
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
    suggested = null;
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
    // Outside the board, the ghost needs the board's sizes to draw the cards alike.
    const ghost = h("div.ghost", { "aria-hidden": "true", style: surface.style.cssText });
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
    update, refuse, deal, flip, say, suggest, playSuggested, light,
    // Nothing to undo is said on the spot, with the duel's reason when a deal, a flip or
    // an uncovered card stands in the way (its Undo looks disabled but answers a click).
    undo: () => (view.can_undo ? act({ op: "undo" })
      : refuse(rules?.undo === "moves" && view.actions ? "undo_barrier" : "nothing_to_undo")),
    setRules,
    focus: () => markFocus(true),
    get view() { return view; },
    get sizes() { return sizes; },
    destroy: () => { resizes.disconnect(); document.removeEventListener("keydown", forget, true); },
    el: surface,
  };
}

const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock"]);

const SHAKE = [
  { transform: "translateX(0)" }, { transform: "translateX(-6px)" },
  { transform: "translateX(6px)" }, { transform: "translateX(0)" },
];

