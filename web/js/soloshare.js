// The share text of a finished solo or daily game, as duels have one: the outcome, the
// suit count, time and points, and a link that deals the same cards — no card and no move
// named, so it spoils nothing. Today's daily deal is not linked by number (nobody may
// rehearse it until tomorrow): the link opens the daily screen instead.
import { h, announce, copyText } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./face.js";
import { suitsLabel, duration, number, day } from "./extra.js";
import "./history-words.js";

// game: a SoloGame (REST) or solo_over with kind and options; link: its "play this deal"
// link, or null for today's daily.
export function soloShareText(game, link) {
  const options = game.options ?? { suits: 2 };
  const words = { n: game.number, suits: suitsLabel(options.suits), time: duration(game.elapsed_ms),
    points: number(game.points), date: day(game.daily_date) };
  const won = game.status === "won";
  const key = game.kind === "daily" ? (won ? "hxShareDailyWon" : "hxShareDailyLost") : (won ? "hxShareSoloWon" : "hxShareSoloLost");
  const tail = link ? t("shareLink", { url: link }) : t("hxShareDaily", { url: `${location.origin}/#/daily` });
  return `${t(key, words)}\n${tail}`;
}

export function soloSharePanel(game, link) {
  const text = soloShareText(game, link);
  const box = h("textarea", { id: "solo-share-text", readonly: true, rows: 3, "aria-labelledby": "solo-share-h" }, text);
  const copied = h("span.note", { role: "status" });
  return h("section.panel", {},
    h("h2", { id: "solo-share-h" }, t("share")), box,
    h("div.row", { style: "margin-top:.6rem" }, h("button", {
      type: "button", id: "copy-solo-share",
      onclick: async () => {
        copied.textContent = (await copyText(text)) ? t("copied") : "";
        announce(copied.textContent);
      },
    }, icon("copy"), t("copy")), copied,
    // The game's replay, under its player's page ("-" when the frame did not name them).
    h("a.button", { id: "watch-replay", href: `#/player/${encodeURIComponent(game.player_name ?? "-")}/replay/solo/${game.id ?? game.game_id}` },
      icon("replay"), t("hxReplay"))));
}
