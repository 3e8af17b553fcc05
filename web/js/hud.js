// What the duel table (table.js) and the solo table (soloplay.js) show and say alike: a
// hint lit up and said, the events said to screen readers, Enter after a hint, a panel's
// figure. Below both screens, so that neither imports the other.
import { h, clear, patch, announce, showText } from "./dom.js";
import { icon } from "./face.js";
import { t, cardName, suitName, tip } from "./i18n.js";

// Enter with the focus outside the board (the page, after pressing I) plays the hint just
// given; on a button or link Enter keeps pressing it; inside the board, board.js handles it.
export function enterPlaysHint(event, board) {
  // Also on the Hint button itself, where a click on it leaves the focus: Enter there
  // asked for a second hint (an assist more, in solo) instead of playing the first.
  const control = event.target.closest("button, a, [role=button]");
  if (event.defaultPrevented || (control && control.id !== "hint")) return false;
  if (!board.playSuggested()) return false;
  event.preventDefault();
  return true;
}

// A move of one card names it; a move of a run names its first and last card and how many,
// so that "move the six of spades" does not hide the five riding on it.
function moveWords(up, { count, to }) {
  const first = up.at(-count);
  if (count === 1) return t("hintMove", { card: cardName(first, { article: true }), n: to + 1 });
  return t("hintMoveRun", { count, card: cardName(first), last: cardName(up.at(-1)), n: to + 1 });
}

// A hint points: it lights up what to play for a moment and says why, in the status
// line for everyone and in the live region for screen readers. It plays nothing by
// itself; Enter right after it plays it (board.suggest). Shared by the duel and solo
// tables.
export function showHintOn(el, board, view, { action: a, reason }) {
  if (a?.op === "undo") {
    const undo = el.querySelector("#undo");
    undo?.classList.add("hinted");
    setTimeout(() => undo?.classList.remove("hinted"), 2500);
  } else if (a) board?.light(a); // the board lights it again if it redraws meanwhile
  const what = !a ? t("hintNone") : a.op === "move" ? moveWords(view.columns[a.from].up, a)
    : a.op === "flip" ? t("hintFlip", { n: a.col + 1 }) : t(a.op === "deal" ? "hintDeal" : "hintUndo");
  // The reason only where it adds to the action ("turn up the card in column 10 — turns a
  // card face up" said it twice).
  const said = reason === "deal" || (a?.op === "flip" && reason === "turns a card face up");
  const text = t("hintSays", { what: `${what}${said ? "" : ` — ${tip(reason)}`}` });
  board?.say(text, { kind: "hint" });
  announce(text);
  board?.suggest(a); // Enter next plays it
}

// Moves, deals, flips and completed runs said to screen readers; a completed run pops.
export function sayEvents(el, events = [], mine = true) {
  const said = [];
  for (const e of events) {
    if (e.kind === "moved") said.push(t("moved", { card: cardName(e.cards[0]), n: e.to + 1 }));
    else if (e.kind === "dealt") said.push(t("dealt"));
    else if (e.kind === "flipped" && mine) said.push(t("flipped", { card: cardName(e.card), n: e.col + 1 }));
    else if (e.kind === "undone") said.push(t("undone"));
    else if (e.kind === "run_completed") {
      said.push(t("runDone", { suit: suitName(e.suit) }));
      requestAnimationFrame(() => el.querySelector(".runs .run:last-child")?.classList.add("fresh"));
    }
  }
  if (said.length) announce(said.join(" "));
}

// One figure of a player panel: "Score 480".
export function stat(label, value, id) {
  return h("span.stat", {}, h("span.label", {}, label), " ", h("span.value", { id }, String(value)));
}

// A table's game buttons, each { id, icon, text, props, note }: an icon, a label and an
// optional note (the rescue's cost). Drawn once, then patched while the same buttons are
// wanted: an ack or a piece of news arriving between a finger's down and up would
// otherwise replace the button under it, and the tap would be lost.
export function drawButtons(host, wanted) {
  const drawn = [...host.children];
  if (drawn.length === wanted.length && wanted.every(({ id }, i) => drawn[i].id === id)) {
    wanted.forEach(({ text, props, note }, i) => {
      patch(drawn[i], props);
      showText(drawn[i].querySelector(".label"), text);
      const noted = drawn[i].querySelector(".cost");
      if (noted) showText(noted, note ?? "");
    });
    return;
  }
  clear(host, ...wanted.map(({ id, icon: name, text, props, note }) =>
    h("button.game", { type: "button", id, ...props }, icon(name), h("span.label", {}, text),
      note ? h("span.cost", { "aria-hidden": "true" }, note) : null)));
}
