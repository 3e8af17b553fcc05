// Player info from any name: stats, rating, Add friend, Ignore.
import { h, clear, announce } from "./dom.js";
import { t, levelName } from "./i18n.js";

const suitsLabel = (n) => t({ 1: "oneSuit", 2: "twoSuits", 4: "fourSuits" }[n]);
import { api } from "./api.js";

export function playerScreen(app, { name }) {
  const el = h("section.screen.narrow.player-info");
  let info = null;
  let message = "";

  async function load() {
    try {
      info = await api.player(name);
    } catch (problem) {
      message = t("error", { detail: problem.message });
    }
    render();
  }

  function render() {
    const row = (label, value) => [h("dt", {}, label), h("dd", {}, value ?? "—")];
    const self = app.me?.name?.toLowerCase() === name.toLowerCase();
    clear(el,
      h("h1", {}, name),
      message ? h("p", { role: "status" }, message) : null,
      info ? h("dl.stats", {},
        row(t("since"), info.since ? new Date(info.since).toLocaleDateString(document.documentElement.lang) : null),
        row(t("games"), info.games_played),
        row(t("wins"), info.won),
        row(t("losses"), info.lost),
        row(t("streak"), info.streak),
        (info.ratings || []).map((r) => row(`${t("rating")} (${suitsLabel(r.suits)})`,
          `${Math.round(r.rating)} · ${levelName(r.band)}`))) : null,
      self ? null : h("div.row",
        h("button.primary", { type: "button", id: "add-friend", onclick: () => act(api.addFriend, "friendAdded") }, t("addFriend")),
        h("button", { type: "button", id: "ignore", onclick: () => act(api.ignore, "ignored") }, t("ignore"))),
      h("p", {}, h("a", { href: "#/" }, t("back"))));
  }

  async function act(call, done) {
    try {
      await call(name);
      message = t(done);
    } catch (problem) {
      message = t("error", { detail: problem.message });
    }
    announce(message);
    render();
  }

  render();
  load();
  return { el, render };
}
