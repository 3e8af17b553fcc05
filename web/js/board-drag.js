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

  // A drag may start while my previous action is on its way (a fast player on a slow
  // network): it is judged when dropped, in its turn, against the board that action
  // leaves; meanwhile a redraw keeps its cards lifted (b.dragging, board-render.js).
  function startDrag() {
    const column = b.view.columns[drag.col];
    const count = column.up.length - drag.index;
    if (drag.index < 0 || count > movableRun(column)) {
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
    const names = column.up.slice(drag.index);
    Object.assign(drag, { started: true, ghost, cards, count, names });
    b.dragging = { col: drag.col, index: drag.index, names };
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
    if (drag?.started && !drag.dead) snapBack(b, drag);
    drag = null;
  }

  // The dragged cards are where they were when lifted (the action before may have moved
  // them while they were in the air).
  const stillThere = ({ col, index, names }) =>
    names.every((name, i) => b.view.columns[col].up[index + i] === name) &&
    b.view.columns[col].up.length === index + names.length;

  async function onPointerUp(event) {
    endPointer();
    const current = drag;
    drag = null;
    if (!current) return;
    if (!current.started) return b.tap(current.col, current.index);
    if (current.dead) return;
    const over = columnAt(event.clientX, event.clientY);
    const to = over ? Number(over.dataset.col) : current.col;
    if (to === current.col) return snapBack(b, current);
    const move = { op: "move", from: current.col, to, count: current.count };
    const ok = await b.act(() => {
      if (!stillThere(current)) return snapBack(b, current); // the board changed: nothing
      const problem = moveProblem(b.view, b.rules, move.from, move.to, move.count);
      if (problem) {
        snapBack(b, current);
        b.refuse(problem);
        return null;
      }
      b.focus = { col: to, index: 99 };
      current.ghost.classList.add("dropped"); // the move's animation starts from here
      return move;
    }, { onReject: () => snapBack(b, current) });
    if (ok) current.ghost.remove();
    if (b.dragging?.names === current.names) b.dragging = null;
  }

  return { onPointerDown };
}

// Back where they came from (returns null: nothing to send). The cards shown again are
// the board's current ones: a redraw while they were in the air replaced those lifted.
function snapBack(b, current) {
  const { ghost } = current;
  if (b.dragging?.names === current.names) b.dragging = null;
  const done = () => {
    ghost.remove();
    for (const c of b.tableau.querySelectorAll(".card.lifted")) {
      const next = b.dragging; // another drag begun meanwhile keeps its own cards lifted
      if (next?.col !== Number(c.dataset.col) || c.dataset.index < next.index) c.classList.remove("lifted");
    }
  };
  if (reducedMotion() || !ghost.animate) return done();
  ghost.animate([{ transform: ghost.style.transform }, { transform: "translate(0, 0)" }],
    { duration: 180, easing: "ease-out" }).finished.then(done, done);
  ghost.style.transform = "translate(0, 0)";
}
