// Redo in solo games (docs/solo-and-daily.md, "Redo"): the client keeps the actions it saw
// undone and plays them again as ordinary moves, which the server validates and scores as
// any move (so a redo earns exactly what playing the move again earns, and costs its
// action). A new action other than the next one to redo forgets them; so does anything the
// client did not play itself (a rescue, the auto-complete, another tab's moves). A reload
// keeps it: the stack is kept in the tab's sessionStorage with the seq it was left at, and
// the game's snapshot takes it back if the game is still there (it was lost, Redo off).
import "./history-words.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const KEY = "spider.redo";

export function redoStack() {
  let done = []; // my acknowledged actions since the last reset, oldest first
  let undone = []; // what my undos took back, the latest last
  return {
    // Kept for game `gameId` at `seq`; taken back by `resume` at that same seq only.
    keep(gameId, seq) {
      try {
        sessionStorage.setItem(KEY, JSON.stringify({ gameId, seq, done, undone }));
      } catch { /* storage off or full: Redo works until the next reload */ }
    },
    resume(gameId, seq) {
      let kept = null;
      try { kept = JSON.parse(sessionStorage.getItem(KEY) ?? "null"); } catch { kept = null; }
      const same = kept?.gameId === gameId && kept.seq === seq;
      [done, undone] = same ? [kept.done, kept.undone] : [[], []];
    },
    played(action) {
      if (action.op === "undo") {
        const back = done.pop();
        if (back) undone.push(back);
        return;
      }
      done.push(action);
      if (undone.length && same(undone.at(-1), action)) undone.pop();
      else undone = [];
    },
    next: () => undone.at(-1) ?? null,
    reset() { done = []; undone = []; },
    get size() { return undone.length; },
  };
}

// The Redo button shows the Undo arrow turned the other way (no icon of its own).
if (!document.querySelector("style[data-redo]")) {
  const style = Object.assign(document.createElement("style"), { textContent: "#redo .icon { transform: scaleX(-1); }" });
  style.dataset.redo = "1";
  document.head.append(style);
}
