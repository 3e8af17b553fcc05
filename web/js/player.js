// Player info from any name: stats, rating, Add friend, Ignore.
import { h, clear, announce } from "./dom.js";
import { t, levelName, problemText } from "./i18n.js";

import { api } from "./api.js";
import { icon } from "./face.js";

const suitsLabel = (n) => t({ 1: "oneSuit", 2: "twoSuits", 4: "fourSuits" }[n]);

export function playerScreen(app, { name }) {
  const el = h("section.screen.narrow.player-info");
  let info = null;
  let message = "";

  async function load() {
    try {
      info = await api.player(name);
    } catch (problem) {
      message = problemText(problem);
    }
    render();
  }

  function render() {
    const tile = (label, value, wide) => h("div", { class: wide ? "wide" : "" }, h("dt", {}, label), h("dd", {}, value ?? "—"));
    const self = app.me?.name?.toLowerCase() === name.toLowerCase();
    clear(el,
      h("div.profile", h("span.avatar", { "aria-hidden": "true", "data-initial": name[0] }), h("h1", {}, name)),
      message ? h("p.banner", { role: "status" }, message) : null,
      info ? h("dl.stats.stats-grid", {},
        tile(t("games"), info.games_played),
        tile(t("wins"), info.won),
        tile(t("losses"), info.lost),
        tile(t("streak"), info.streak),
        tile(t("since"), info.since ? new Date(info.since).toLocaleDateString(document.documentElement.lang) : null, true),
        (info.ratings || []).map((r) => tile(`${t("rating")} (${suitsLabel(r.suits)})`,
          `${Math.round(r.rating)} · ${levelName(r.band)}`, true))) : null,
      h("div.row",
        self ? null : [
          h("button.primary", { type: "button", id: "add-friend", onclick: () => act(api.addFriend, "friendAdded") }, icon("friend"), t("addFriend")),
          h("button", { type: "button", id: "ignore", onclick: () => act(api.ignore, "ignored") }, icon("block"), t("ignore"))],
        h("a.button", { href: "#/" }, icon("back"), t("back"))));
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
