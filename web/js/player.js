// Player info from any name: duel stats and ratings, solo stats per suit count, the daily
// deal's streak, badges with the date earned (all fifteen, those not earned yet dimmed),
// Add friend, Ignore.
import { h, clear, announce } from "./dom.js";
import { t, levelName, problemText } from "./i18n.js";

import { api } from "./api.js";
import { icon } from "./face.js";
import { styled, suitsLabel, glyphs, duration, number, day, medal } from "./extra.js";

await styled;

export function playerScreen(app, { name }) {
  const el = h("section.screen.narrow.player-info");
  let info = null;
  let earned = []; // the player's badges, earliest first
  let table = []; // every badge there is
  let message = "";

  async function load() {
    try {
      info = await api.player(name);
    } catch (problem) {
      message = problemText(problem);
    }
    render();
    if (!info) return;
    // Solo stats and badges come with the solo layer; a server without it shows duels only.
    [earned, table] = await Promise.all([api.playerBadges(info.id).catch(() => []), api.badges().catch(() => [])]);
    render();
  }

  function render() {
    const tile = (label, value, wide) => h("div", { class: wide ? "wide" : "" }, h("dt", {}, label), h("dd", {}, value ?? "—"));
    const self = app.me?.name?.toLowerCase() === name.toLowerCase();
    clear(el,
      h("div.profile", h("span.avatar", { "aria-hidden": "true", "data-initial": name[0] }), h("h1", {}, name)),
      message ? h("p.banner", { role: "status" }, message) : null,
      info ? h("h2", {}, t("duels")) : null,
      info ? h("dl.stats.stats-grid", {},
        tile(t("games"), info.games_played),
        tile(t("wins"), info.won),
        tile(t("losses"), info.lost),
        tile(t("streak"), info.streak),
        tile(t("since"), info.since ? new Date(info.since).toLocaleDateString(document.documentElement.lang) : null, true),
        (info.ratings || []).map((r) => tile(`${t("rating")} (${suitsLabel(r.suits)})`,
          `${Math.round(r.rating)} · ${levelName(r.band)}`, true))) : null,
      info?.solo ? soloStats(info.solo) : null,
      info?.daily ? h("section", { "aria-labelledby": "daily-h" }, h("h2", { id: "daily-h" }, t("daily")),
        h("dl.stats.stats-grid", { id: "daily-stats" },
          tile(t("played"), info.daily.played), tile(t("wonCount"), info.daily.won),
          tile(t("streakNow"), t("days", { n: info.daily.current_streak })),
          tile(t("streakBest"), t("days", { n: info.daily.best_streak })),
          tile(t("lastWon"), day(info.daily.last_won), true))) : null,
      info && (earned.length || table.length) ? badgeList() : null,
      h("div.row",
        self ? null : [
          h("button.primary", { type: "button", id: "add-friend", onclick: () => act(api.addFriend, "friendAdded") }, icon("friend"), t("addFriend")),
          h("button", { type: "button", id: "ignore", onclick: () => act(api.ignore, "ignored") }, icon("block"), t("ignore"))],
        h("a.button", { href: "#/" }, icon("back"), t("back"))));
  }

  function badgeList() {
    const held = new Map(earned.map((b) => [b.code, b]));
    const rest = table.filter((b) => !held.has(b.code));
    return h("section", { "aria-labelledby": "badges-h" },
      h("h2", { id: "badges-h" }, `${t("badgesTitle")} (${earned.length}/${table.length || earned.length})`),
      earned.length ? null : h("p.muted", {}, t("noBadges")),
      h("div.medals", { id: "badges" }, earned.map((b) => medal(b)), rest.map((b) => medal(b, { earned: false }))));
  }

  async function act(call, done) {
    try {
      await call(name);
      message = t(done);
    } catch (problem) {
      message = problemText(problem);
    }
    announce(message);
    render();
  }

  render();
  load();
  return { el, render };
}

// Solo games per suit count: games, wins, best time, best points, points (all time, week).
function soloStats(rows) {
  const heads = [t("suits"), t("games"), t("wins"), t("bestTime"), t("bestPoints"), t("points"), t("pointsWeek")];
  return h("section", { "aria-labelledby": "solo-h" }, h("h2", { id: "solo-h" }, t("solo")),
    h("div.tablewrap", { tabindex: 0, role: "region", "aria-labelledby": "solo-h" }, h("table.scoresheet.solostats", { id: "solo-stats" },
      h("thead", {}, h("tr", {}, heads.map((text) => h("th", { scope: "col" }, text)))),
      h("tbody", {}, rows.map((r) => h("tr", {},
        h("th", { scope: "row" }, glyphs(r.suits), h("span.suitname", {}, " ", suitsLabel(r.suits))),
        h("td", {}, r.games), h("td", {}, r.wins), h("td", {}, duration(r.best_time_ms)),
        h("td", {}, number(r.best_points)), h("td", {}, number(r.points)), h("td", {}, number(r.points_week))))))));
}
