// The help dialog (how to play, the keys) with its words in each language: loaded on
// demand when the help is first opened, never by the first page.
import { h, $, clear } from "./dom.js";
import { t, addWords } from "./i18n.js";

addWords({
  en: {
    helpTitle: "How to play",
    helpText: "Build runs from king down to ace in one suit; a completed run leaves the table. Click or tap a card to send it to the best place, again for the next place, or drag it.",
    keys: "Keys",
    keyUndo: "Ctrl+Z: undo",
    keyRedo: "Ctrl+Y or Ctrl+Shift+Z: play again a move you undid (solo)",
    keyArrows: "Arrows: move between columns and cards",
    keyEnter: "Enter: pick up the cards, then drop them on a column (right after a hint: play it)",
    keyEsc: "Escape: cancel",
    keyFlip: "F: turn up a face-down card",
    keyHelp: "H: this help",
    keyHint: "I: a hint",
    keyRescue: "R: rescue (solo; costs points)",
    keyAuto: "A: auto-complete (solo)",
  },
  fr: {
    helpTitle: "Comment jouer",
    helpText: "Formez des suites du roi à l'as dans une même couleur ; une suite complète quitte la table. Cliquez ou touchez une carte pour l'envoyer à la meilleure place, encore pour la place suivante, ou faites-la glisser.",
    keys: "Touches",
    keyUndo: "Ctrl+Z : annuler",
    keyRedo: "Ctrl+Y ou Ctrl+Maj+Z : rejouer un coup annulé (solo)",
    keyArrows: "Flèches : se déplacer entre colonnes et cartes",
    keyEnter: "Entrée : prendre les cartes, puis les poser sur une colonne (juste après un indice : le jouer)",
    keyEsc: "Échap : annuler",
    keyFlip: "F : retourner une carte face cachée",
    keyHelp: "H : cette aide",
    keyHint: "I : un indice",
    keyRescue: "R : sauvetage (solo ; coûte des points)",
    keyAuto: "A : fin automatique (solo)",
  },
  de: {
    helpTitle: "So wird gespielt",
    helpText: "Baue Reihen vom König bis zum Ass in einer Farbe; eine fertige Reihe verlässt den Tisch. Klicke oder tippe eine Karte, um sie an den besten Platz zu legen, nochmals für den nächsten Platz, oder ziehe sie.",
    keys: "Tasten",
    keyUndo: "Strg+Z: zurück",
    keyRedo: "Strg+Y oder Strg+Umschalt+Z: einen zurückgenommenen Zug wiederholen (Solo)",
    keyArrows: "Pfeile: zwischen Spalten und Karten wechseln",
    keyEnter: "Enter: Karten aufnehmen, dann auf eine Spalte legen (direkt nach einem Tipp: ihn spielen)",
    keyEsc: "Esc: abbrechen",
    keyFlip: "F: verdeckte Karte aufdecken",
    keyHelp: "H: diese Hilfe",
    keyHint: "I: ein Tipp",
    keyRescue: "R: Rettung (Solo; kostet Punkte)",
    keyAuto: "A: Auto-Ende (Solo)",
  },
});

function renderHelp() {
  const dialog = $("#help");
  clear(dialog,
    h("h2", { id: "help-title" }, t("helpTitle")),
    h("p", {}, t("helpText")),
    h("h3", {}, t("keys")),
    h("ul", {}, ["keySpace", "keyUndo", "keyRedo", "keyArrows", "keyEnter", "keyEsc", "keyFlip", "keyHint", "keyRescue", "keyAuto", "keyHelp"]
      .map((key) => h("li", {}, t(key)))),
    h("form", { method: "dialog" }, h("button", { class: "primary" }, t("close"))));
}

export function openHelp() {
  renderHelp();
  const dialog = $("#help");
  if (!dialog.open) dialog.showModal();
}
