// The end of a solo or daily game: the points and how they were made (docs/points.md), the
// badges it earned, what next, and the link that lets a friend play the same deal.
import { h, announce, copyText } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./face.js";
import { playLink } from "./result.js";
import { suitsLabel, glyphs, duration, number, day, medal } from "./extra.js";
import { soloSharePanel } from "./soloshare.js";


// "6/5" → 1.2 (the breakdown's multiplier is a fraction string).
export function fraction(text) {
  const [top, bottom = 1] = String(text).split("/").map(Number);
  return top / bottom;
}

// game: a SoloGame (REST) or a solo_over frame with kind, options and rescues added.
export function soloResultView({ game, badges = [], onNewDeal }) {
  const won = game.status === "won";
  const daily = game.kind === "daily";
  const options = game.options ?? { suits: 2, solvable_only: true, relaxed: false };
  const heading = won ? t("youWon") : game.status === "expired" ? t("expired") : t("givenUp");
  // Today's daily is everyone's one attempt of the day: no link to rehearse it until
  // tomorrow (the server refuses such a solo game, daily_deal_today).
  const todays = daily && game.daily_date === new Date().toISOString().slice(0, 10);
  const link = game.number && !todays ? playLink(game.number, options) : null;
  const linkBox = link ? h("input", { id: "play-link", readonly: true, value: link, "aria-label": t("playLink") }) : null;
  const copied = h("span.note", { role: "status" });
  return h("section.result.soloresult", { "aria-labelledby": "result-h" },
    h("h1", { id: "result-h" }, daily ? t("dailyOf", { date: day(game.daily_date) }) : t("dealNo", { n: game.number ?? "—" })),
    h("section.panel",
      h("p.winner", {}, icon(won ? "trophy" : "finish"), h("span", { id: "winner" }, heading)),
      h("p.center.muted", { id: "over-lead" }, glyphs(options.suits), " ",
        t("overLead", { n: game.number ?? "—", suits: suitsLabel(options.suits), time: duration(game.elapsed_ms),
          // "1 action", not "1 actions": the count picks its own plural (t's `n`).
          actions: game.actions == null ? "—" : t("actionCount", { n: game.actions }) })),
      won && game.points_breakdown ? breakdownTable(game.points_breakdown, options, game.rescues) : null,
      game.assisted ? h("p.center.assisted-note", { id: "assisted", title: t("assistedHelp") }, assistedText(game.assists)) : null,
      badges.length ? h("section.newbadges", { "aria-labelledby": "nb-h" },
        h("h2", { id: "nb-h" }, t("newBadges")), h("div.medals", {}, badges.map((b) => medal(b)))) : null,
      h("div.row.center",
        daily ? h("a.button.primary", { href: "#/daily", id: "to-daily" }, icon("daily"), t("dailyBoard", { date: day(game.daily_date) }))
          : h("button.primary", { type: "button", id: "new-deal", onclick: onNewDeal }, icon("plus"), t("newDeal")),
        link && !daily ? h("a.button", { href: link, id: "play-again" }, icon("replay"), t("playAgain")) : null,
        h("a.button", { href: "#/leaderboards" }, icon("boards"), t("navBoards")))),
    game.status === "abandoned" && !game.actions ? null : soloSharePanel(game, link),
    link ? h("section.panel", {},
      h("h2", {}, t("playLink")),
      h("p.muted", {}, t("playLinkHint")),
      h("div.row.field", linkBox,
        h("button", {
          type: "button", id: "copy-play-link",
          onclick: async () => {
            linkBox.select();
            copied.textContent = (await copyText(link)) ? t("copied") : "";
            announce(copied.textContent);
          },
        }, icon("copy"), t("copyLink")), copied))
      : todays ? h("section.panel", {}, h("p.muted", { id: "play-link-tomorrow" }, t("playLinkTomorrow"))) : null);
}

// Base, bonuses, the options' multiplier, rescues and the total, as docs/points.md adds them.
function breakdownTable(b, options, rescues) {
  const x = fraction(b.multiplier);
  const row = (label, value, cls = "") => h("tr", { class: cls }, h("th", { scope: "row" }, label), h("td", {}, value));
  const subtotal = b.base + b.speed + b.economy;
  const floored = b.total === b.floor && Math.floor(subtotal * x) - b.rescue_cost < b.floor;
  return h("table.breakdown", { id: "points-breakdown" },
    h("caption", {}, t("breakdown")),
    h("tbody", {},
      row(t("base", { suits: suitsLabel(options.suits) }), number(b.base)),
      row(t("speedBonus"), `+${number(b.speed)}`),
      row(t("economyBonus"), `+${number(b.economy)}`),
      x !== 1 ? row(t("optionsFactor"), `× ${x.toLocaleString(document.documentElement.lang)}`) : null,
      b.rescue_cost ? row(`${t("rescuesCost")}${rescues ? ` (${rescues})` : ""}`, `−${number(b.rescue_cost)}`, "cost") : null,
      floored ? row(t("floor"), number(b.floor)) : null,
      row(t("total"), t("pointsEarned", { n: number(b.total) }), "total")));
}

// "Assisted: 3 hints, 1 rescue" (docs/points.md, "Fair play"); the counts of solo_over or the game view.
export function assistedText(counts = {}) {
  const parts = [["assistHints", counts.hints], ["assistRescues", counts.rescues], ["assistUndos", counts.undo_to_winnable]]
    .filter(([, n]) => n > 0).map(([key, n]) => t(key, { n }));
  return parts.length ? t("assistedList", { list: parts.join(", ") }) : t("assistedMark");
}
