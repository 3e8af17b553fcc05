// The solver's waits at a solo table, loaded the first time they are needed (not by the
// first page): "Thinking…" with Cancel while a hint, a rescue or an undo-to-winnable
// searches, and the offer to undo to the last winnable position when a hint finds no win
// from here (docs/solo-and-daily.md, "Guided hints").
import { h, announce } from "./dom.js";
import { t, addWords } from "./i18n.js";

addWords({
  en: {
    gdThinking: "Thinking…", gdCancel: "Cancel", gdCancelled: "Cancelled: nothing was played.",
    gdNoWin: "No win from here — undo to move {n}?", gdNoWinStart: "No win from here — undo to the start?",
    gdNoWinFound: "The solver found no win from here in time.",
    gdUndo: "Undo to move {n}", gdUndoStart: "Undo to the start", gdUndoWinnable: "Undo to the last winnable position",
    gdNotNow: "Not now", gdBack: "Back to move {n}: a win is possible from here.",
    gdBackSome: "Back to the last winnable position: a win is possible from here.",
    gdNotFound: "No winnable position found in time: try again, or undo a few moves.",
  },
  fr: {
    gdThinking: "Réflexion…", gdCancel: "Annuler", gdCancelled: "Annulé : rien n'a été joué.",
    gdNoWin: "Plus de victoire possible d'ici — revenir au coup {n} ?", gdNoWinStart: "Plus de victoire possible d'ici — revenir au début ?",
    gdNoWinFound: "Le solveur n'a pas trouvé de victoire d'ici à temps.",
    gdUndo: "Revenir au coup {n}", gdUndoStart: "Revenir au début", gdUndoWinnable: "Revenir à la dernière position gagnable",
    gdNotNow: "Pas maintenant", gdBack: "Retour au coup {n} : la victoire est possible d'ici.",
    gdBackSome: "Retour à la dernière position gagnable : la victoire est possible d'ici.",
    gdNotFound: "Aucune position gagnable trouvée à temps : réessayez, ou annulez quelques coups.",
  },
  de: {
    gdThinking: "Denke nach…", gdCancel: "Abbrechen", gdCancelled: "Abgebrochen: nichts wurde gespielt.",
    gdNoWin: "Von hier kein Sieg mehr — zurück zu Zug {n}?", gdNoWinStart: "Von hier kein Sieg mehr — zurück zum Anfang?",
    gdNoWinFound: "Der Löser fand von hier rechtzeitig keinen Sieg.",
    gdUndo: "Zurück zu Zug {n}", gdUndoStart: "Zurück zum Anfang", gdUndoWinnable: "Zurück zur letzten gewinnbaren Stellung",
    gdNotNow: "Nicht jetzt", gdBack: "Zurück bei Zug {n}: von hier ist ein Sieg möglich.",
    gdBackSome: "Zurück bei der letzten gewinnbaren Stellung: von hier ist ein Sieg möglich.",
    gdNotFound: "Rechtzeitig keine gewinnbare Stellung gefunden: versuche es noch einmal oder nimm ein paar Züge zurück.",
  },
});

export const guideText = (key, params) => t(key, params);

// One panel at a time, over the bottom of the table: it does not move the board.
function panel(host, id, ...children) {
  host.querySelector(".guidepanel")?.remove();
  const el = h("div.guidepanel", { id, role: "status" }, ...children);
  host.append(el);
  return el;
}

export function closeGuide(host) {
  host.querySelector(".guidepanel")?.remove();
}

// "Thinking…" and Cancel: onCancel sends solo_cancel; the waiting command's answer closes it.
export function showThinking(host, { onCancel }) {
  const cancel = h("button.game", { type: "button", id: "guide-cancel", onclick: () => {
    cancel.disabled = true;
    onCancel();
  } }, t("gdCancel"));
  panel(host, "guide-thinking", h("span.spinner", { "aria-hidden": "true" }), h("span.what", {}, t("gdThinking")), cancel);
  announce(t("gdThinking"));
}

// The hint found no win from here: offer the undo (move = the target's place, when known).
export function showUndoOffer(host, { move, onUndo }) {
  const known = Number.isInteger(move);
  const question = known ? t(move === 0 ? "gdNoWinStart" : "gdNoWin", { n: move }) : t("gdNoWinFound");
  const label = known ? t(move === 0 ? "gdUndoStart" : "gdUndo", { n: move }) : t("gdUndoWinnable");
  const box = panel(host, "guide-offer",
    h("span.what", {}, question),
    h("button.game.primary", { type: "button", id: "undo-to-winnable", "aria-label": `${t("gdUndoWinnable")}: ${label}`, onclick: () => {
      box.remove();
      onUndo();
    } }, label),
    h("button.game", { type: "button", id: "guide-dismiss", onclick: () => box.remove() }, t("gdNotNow")));
  announce(question);
  box.querySelector("#undo-to-winnable").focus({ preventScroll: true });
}
