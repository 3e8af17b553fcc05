// The result of a match: both games, the winner, ratings, what next, a text to share.
import { h, duration, copyText, announce } from "./dom.js";
import { t, addWords } from "./i18n.js";
import { icon } from "./face.js";

// The result's own words, loaded with this module, not by the first page. A tie on score
// goes to the faster game (rules.md): said, or a star beside "6 to 6" looks like a mistake.
addWords({
  en: {
    howEnded: "How it ended", ratingChange: "Rating change", shareText: "Spider Duel, {suits}: {outcome}, {mine} to {theirs}. Can you do better on the same deal?", shareWon: "I won", shareLost: "I lost", shareDraw: "a draw",
    tieOnTime: "Same score: the faster game wins.", shareWonOnTime: "I won on time", shareLostOnTime: "I lost on time" },
  fr: {
    howEnded: "Fin de partie", ratingChange: "Variation de cote", shareText: "Spider Duel, {suits} : {outcome}, {mine} à {theirs}. Ferez-vous mieux sur la même donne ?", shareWon: "j'ai gagné", shareLost: "j'ai perdu", shareDraw: "égalité",
    tieOnTime: "Même score : la partie la plus rapide l'emporte.", shareWonOnTime: "j'ai gagné au temps", shareLostOnTime: "j'ai perdu au temps" },
  de: {
    howEnded: "Spielende", ratingChange: "Wertungs\u00adänderung", shareText: "Spider Duel, {suits}: {outcome}, {mine} zu {theirs}. Schaffst du mehr mit demselben Blatt?", shareWon: "ich habe gewonnen", shareLost: "ich habe verloren", shareDraw: "unentschieden",
    tieOnTime: "Gleich viele Punkte: das schnellere Spiel gewinnt.", shareWonOnTime: "ich habe nach Zeit gewonnen", shareLostOnTime: "ich habe nach Zeit verloren" },
});
// Out of the first page too (issue 25 needed its bytes): words only results use.
addWords({
  en: { tooShortToRate: "too short to rate", share: "Share", shareLink: "Play it: {url}", result: "Result", player: "Player" },
  fr: { tooShortToRate: "trop courte pour compter", share: "Partager", shareLink: "À vous de jouer : {url}", result: "Résultat", player: "Joueur" },
  de: { tooShortToRate: "zu kurz für die Wertung", share: "Teilen", shareLink: "Jetzt spielen: {url}", result: "Ergebnis", player: "Spieler" },
});

// A quick duel nobody was paired into in time ends with my game only (docs/api.md,
// "Quick duel"): no opponent, no result, no rating change.
addWords({
  en: { qdNoOpponent: "No opponent in time", qdNoResult: "Nobody was paired with you before the deadline: the match ends without a result, and your rating does not change." },
  fr: { qdNoOpponent: "Pas d'adversaire à temps", qdNoResult: "Personne ne vous a été associé avant l'échéance : le match se termine sans résultat, et votre cote ne change pas." },
  de: { qdNoOpponent: "Kein Gegner rechtzeitig", qdNoResult: "Niemand wurde vor Ablauf der Frist mit dir gepaart: das Match endet ohne Ergebnis, deine Wertung bleibt gleich." },
});

const hasWinner = (result) => result.winner_id !== null && result.winner_id !== undefined;

// Won on time: a winner, both games on the same score, and no no-show (that rule comes first).
function wonOnTime(result) {
  const [a, b] = result.results;
  return hasWinner(result) && result.results.length === 2 && a.score === b.score
    && a.reason !== "did_not_start" && b.reason !== "did_not_start";
}

const HOW = { won: "won", finished: "finished_early", finished_early: "finished_early", timeout: "timed_out", timed_out: "timed_out", did_not_start: "did_not_start" };

// `social`: the table's words between players ("Say…", what was said), shown under the
// result's buttons, where "Well played" is said (above the heading it stood alone).
export function resultView({ result, me, nameOf, suits, rated, onNewGame, onLeave, onReplay, social = null }) {
  const first = (row) => (row.player_id === result.winner_id ? 1 : 0);
  const rows = [...result.results].sort((a, b) => first(b) - first(a) || b.score - a.score);
  const alone = result.results.length < 2; // nobody was paired into this quick duel
  const winner = alone ? t("qdNoOpponent") : hasWinner(result) ? t("winner", { name: nameOf(result.winner_id) }) : t("draw");
  const share = shareText(result, me, suits);
  const shareBox = h("textarea", { id: "share-text", readonly: true, rows: 4, "aria-labelledby": "share-h" }, share);
  // As tall as its text once laid out, and again when its width changes (a phone turned):
  // on a phone the link wraps over several lines.
  const fit = () => {
    shareBox.style.height = "auto";
    shareBox.style.height = `${shareBox.scrollHeight + 2}px`;
  };
  requestAnimationFrame(fit);
  let wide = 0;
  new ResizeObserver(() => { if (shareBox.clientWidth !== wide) { wide = shareBox.clientWidth; fit(); } }).observe(shareBox);
  const copied = h("span", { role: "status" });
  // Both scores over time, drawn once the two replays come (scorechart.js, on demand).
  const chart = h("section.panel.scorechart", { id: "score-chart-box", hidden: true });
  const endOf = (id) => result.results.find((row) => row.player_id === id)?.elapsed_ms;
  if (result.match_id && !alone) import("./scorechart.js").then((m) => m.fillScoreChart(chart, result.match_id, nameOf, endOf)).catch(() => chart.remove());
  return h("section.result", { "aria-labelledby": "result-h" },
    h("h1", { id: "result-h" }, t("result")),
    h("section.panel",
      // The trophy is for a winner: a draw has none (it read as a win at a glance).
      h("p.winner", {}, alone || !hasWinner(result) ? null : icon("trophy"), h("span", { id: "winner" }, winner)),
      wonOnTime(result) ? h("p.tiebreak", { id: "tie-break" }, t("tieOnTime")) : null,
      alone ? h("p.tiebreak", { id: "no-result" }, t("qdNoResult")) : null,
      h("table.scoresheet", {},
        h("thead", {}, h("tr", {}, [t("player"), t("score"), t("time"), t("howEnded"), t("ratingChange")]
          .map((text) => h("th", { scope: "col" }, text)))),
        h("tbody", {}, rows.map((row) => h("tr", { class: row.player_id === result.winner_id ? "win" : "" },
          h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(nameOf(row.player_id))}` }, nameOf(row.player_id)),
            row.player_id === me.id ? ` (${t("you")})` : ""),
          h("td", {}, String(row.score)),
          h("td", {}, duration(row.elapsed_ms)),
          h("td", {}, t(HOW[row.reason] || row.reason)),
          h("td", {}, ratingChange(row, rated && !alone && !result.results.every((r) => r.reason === "did_not_start"))))))),
      h("div.row.center",
        alone ? null : h("button.primary", { type: "button", id: "new-game", onclick: onNewGame }, icon("plus"), t("newGame")),
        // A game never opened has nothing to replay.
        rows.filter((row) => row.reason !== "did_not_start").map((row) => h("button", {
          type: "button", class: "replay", onclick: () => onReplay(row.player_id),
        }, icon("replay"), `${t("replay")} — ${nameOf(row.player_id)}`)),
        h("button.quit", { type: "button", id: "leave", onclick: onLeave }, icon("leave"), t("leave"))),
      social),
    chart,
    alone ? null : h("section.panel", {},
      h("h2", { id: "share-h" }, t("share")), shareBox,
      h("div.row", { style: "margin-top:.6rem" }, h("button", {
        type: "button", id: "copy-share",
        onclick: async () => {
          copied.textContent = (await copyText(share)) ? t("copied") : "";
          announce(copied.textContent);
        },
      }, icon("copy"), t("copy")), copied)));
}

// A rated match whose ratings did not move was too short to rate (docs/ratings.md):
// said, so that a bare "—" is not taken for a fault.
function ratingChange(row, rated) {
  if (row.rating_before === null || row.rating_before === undefined || row.rating_after === null) {
    return rated ? t("tooShortToRate") : "—";
  }
  const delta = Math.round(row.rating_after - row.rating_before);
  return `${delta >= 0 ? "+" : "−"}${Math.abs(delta)} (${Math.round(row.rating_after)})`;
}

// The outcome, both scores, the suit count and a link that deals the same cards in a solo
// game (the match's `deal.play`, sent only once both games are over). No card and no move
// is named, so it spoils nothing for the reader; the number in the link is only a seed.
export function shareText(result, me, suits) {
  const onTime = wonOnTime(result);
  const outcome = !hasWinner(result) ? t("shareDraw")
    : result.winner_id === me.id ? t(onTime ? "shareWonOnTime" : "shareWon") : t(onTime ? "shareLostOnTime" : "shareLost");
  const suitText = [null, t("oneSuit"), t("twoSuits"), null, t("fourSuits")][suits] || "";
  const mine = result.results.find((row) => row.player_id === me.id);
  const theirs = result.results.find((row) => row.player_id !== me.id);
  const text = t("shareText", { suits: suitText, outcome, mine: mine?.score ?? 0, theirs: theirs?.score ?? 0 });
  const play = result.deal?.play;
  return play ? `${text}\n${t("shareLink", { url: playLink(play.number, { ...play, relaxed: false }) })}` : text;
}

// "Play this deal": the Solo start screen with the same number and options, which
// solo.js fills its form from (docs/solo-and-daily.md). Also the solo result's link.
export function playLink(dealNumber, options) {
  const query = new URLSearchParams({
    number: dealNumber, suits: options.suits,
    solvable_only: options.solvable_only ? 1 : 0, relaxed: options.relaxed ? 1 : 0,
  });
  return `${location.origin}/#/solo?${query}`;
}
