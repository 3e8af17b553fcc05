// Quick duel (issue 25): the lobby's one button that starts my duel at once — paired into
// a waiting player's match of my level and suit count, or on my own, paired later with
// the next player who asks — and how many players are looking now (live: the lobby's
// quick_looking frames). The pairing rule is the server's (docs/api.md, "Quick duel").
// Loaded on demand with the lobby, with its words; the table loads it for qdLater.
import { h, clear, announce } from "./dom.js";
import { t, addWords, problemText, onLangChange } from "./i18n.js";
import { call } from "./api.js";
import { icon } from "./face.js";

addWords({
  en: {
    qdGo: "Quick duel", qdLooking: "{n} players looking", qdLooking_one: "1 player looking",
    qdWaiting: "Looking for a player of your level ({suits})… You may leave this page: your duel waits in My tables.",
    qdStop: "Stop looking", qdSuits: "Suits of the quick duel",
    qdLater: "Your opponent will play this deal later — you will be paired with the next player who asks.", qdLaterShort: "plays later",
  },
  fr: {
    qdGo: "Duel express", qdLooking: "{n} joueurs cherchent", qdLooking_one: "{n} joueur cherche",
    qdWaiting: "Recherche d'un joueur de votre niveau ({suits})… Vous pouvez quitter la page : votre duel vous attend dans Mes tables.",
    qdStop: "Arrêter de chercher", qdSuits: "Couleurs du duel express",
    qdLater: "Votre adversaire jouera cette donne plus tard — vous serez associé au prochain joueur qui demande.", qdLaterShort: "jouera plus tard",
  },
  de: {
    qdGo: "Schnelles Duell", qdLooking: "{n} Spieler suchen", qdLooking_one: "1 Spieler sucht",
    qdWaiting: "Suche nach einem Spieler deiner Stufe ({suits})… Du kannst die Seite verlassen: dein Duell wartet unter Meine Tische.",
    qdStop: "Suche beenden", qdSuits: "Farben des schnellen Duells",
    qdLater: "Dein Gegner spielt dieses Blatt später — du wirst mit dem nächsten Spieler gepaart, der fragt.", qdLaterShort: "spielt später",
  },
});

const SUITS = { 1: "oneSuit", 2: "twoSuits", 4: "fourSuits" };
const KEPT = "spider.quickSuits";

// Draws into `host` (the lobby keeps it across its redraws); returns the way to stop.
export function quickDuel(app, host) {
  let looking = null;
  let waiting = null; // my quick table while it waits for an opponent
  let busy = false;
  let problem = "";
  let suits = Number(localStorage.getItem(KEPT)) || 1;

  function render() {
    const select = h("select", { id: "quick-suits", "aria-label": t("qdSuits"), disabled: busy || !!waiting,
      onchange: (e) => { suits = Number(e.target.value); localStorage.setItem(KEPT, suits); } },
    Object.entries(SUITS).map(([n, key]) => h("option", { value: n, selected: Number(n) === suits }, t(key))));
    clear(host,
      h("div.row", {},
        waiting ? null : h("button.primary", { type: "button", id: "quick-duel", disabled: busy, onclick: go }, icon("deal"), t("qdGo")),
        select,
        looking === null ? null : h("span.muted", { id: "quick-looking" }, t("qdLooking", { n: looking }))),
      waiting ? h("div.row", {},
        h("span.grow", { id: "quick-waiting", role: "status" }, t("qdWaiting", { suits: t(SUITS[waiting.suits]) })),
        h("button", { type: "button", id: "quick-stop", onclick: stopLooking }, t("qdStop"))) : null,
      problem ? h("p.error", { role: "alert" }, problem) : null);
  }

  async function go() {
    busy = true;
    problem = "";
    render();
    try {
      const answer = await call("POST", "/quick-duel", { suits });
      looking = answer.looking;
      // My match is made at once (paired into a waiting player's, or mine alone): play now.
      if (answer.paired || answer.table.match_id) {
        app.playNow = answer.table.id;
        return app.go(`#/table/${answer.table.id}`);
      }
      waiting = answer.table;
      announce(t("qdWaiting", { suits: t(SUITS[suits]) }));
    } catch (error) {
      problem = problemText(error);
    }
    busy = false;
    render();
  }

  async function stopLooking() {
    try {
      await call("DELETE", "/quick-duel");
      waiting = null;
    } catch (error) {
      problem = problemText(error);
    }
    render();
  }

  host.style.marginBottom = "1rem";
  const stop = app.listen((m) => {
    if (m.type === "quick_looking") { looking = m.looking; render(); }
    // Someone asked for the same: my wait is over, the duel starts.
    if (m.type === "lobby" && waiting && m.table?.id === waiting.id && m.table.match_id) app.go(`#/table/${waiting.id}`);
  });
  // Kept across the lobby's redraws, so its words follow a language change by themselves
  // (the lobby said "Quick duel" in German until it was opened again).
  const unlisten = onLangChange(render);
  render();
  call("GET", "/quick-duel").then((answer) => { looking = answer.looking; render(); }, () => {});
  return () => { stop(); unlisten(); };
}
