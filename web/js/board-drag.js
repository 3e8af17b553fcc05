// The pointer on the board, drag or tap: a part of createBoard (board.js), sharing its `b`.
import { h, reducedMotion } from "./dom.js";
import { movableRun, moveProblem, targets } from "./rules.js";

const DRAG_THRESHOLD = 6; // pixels: below this a press is a tap, not a drag

export function pointer(b) {
  const { tableau, surface } = b;
  let drag = null;

  // ---- pointer: drag or tap
  function onPointerDown(event) {
    b.suggested = null;
    if (event.button > 0) return;
    const el = event.target.closest("[data-col][data-index]");
    if (!el || !tableau.contains(el)) return;
    const col = Number(el.dataset.col);
    const index = Number(el.dataset.index);
    drag = { col, index, x: event.clientX, y: event.clientY, started: false, id: event.pointerId };
    b.focus = { col, index };
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
    const column = b.view.columns[drag.col];
    const count = column.up.length - drag.index;
    if (b.pending || drag.index < 0 || count > movableRun(column)) {
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
    for (const to of targets(b.view, b.rules, drag.col, count)) tableau.children[to].classList.add("target");
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
    if (!current.started) return b.tap(current.col, current.index);
    if (current.dead) return;
    const over = columnAt(event.clientX, event.clientY);
    const to = over ? Number(over.dataset.col) : current.col;
    if (to === current.col) return snapBack(current);
    const move = { op: "move", from: current.col, to, count: current.count };
    const problem = moveProblem(b.view, b.rules, move.from, move.to, move.count);
    if (problem) {
      snapBack(current);
      return b.refuse(problem);
    }
    b.focus = { col: to, index: 99 };
    const ok = await b.act(move, { onReject: () => snapBack(current) });
    if (ok) current.ghost.remove();
  }

  return { onPointerDown };
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
