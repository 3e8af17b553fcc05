// A table in one line (host, suits, time, level, difficulty, rated, private; as badges),
// shown by the lobby (lobby.js) and at the table (table.js): below both, so that the table
// does not import the lobby.
import { h } from "./dom.js";
import { t, levelName, difficultyLabel } from "./i18n.js";

// The table's host as players see it: its owner while seated there, else whoever sits
// there now (an owner who left after a match is not there to play: the lobby named them,
// and offered them their own "Table" button).
const seatedHost = (table) => {
  const seats = table.seats || [];
  return !seats.length || seats.some((s) => s.player_id === table.owner_id) ? null : seats[0];
};
export const hostName = (table) => seatedHost(table)?.name ?? table.owner_name ?? "";
export const hostId = (table) => seatedHost(table)?.player_id ?? table.owner_id;

const SUIT_GLYPHS = { 1: "♠", 2: "♠♥", 4: "♠♥♦♣" };
export const glyphs = (text) => h("span.suits", { "aria-hidden": "true" },
  [...text].map((g) => h("span", { class: "♥♦".includes(g) ? "rs" : "" }, g)));

// A table in one line: host (or, in My tables, the other player: none while alone; at the
// table, both players once two are seated), suits, time, level, rated; as badges.
export function tableSummary(table, host = hostName(table)) {
  const suits = [null, t("oneSuit"), t("twoSuits"), null, t("fourSuits")][table.suits] ?? "";
  const limit = table.time_limit_seconds;
  const hosts = [host].flat().filter(Boolean);
  return h("span.summary", {},
    hosts.map((name, i) => [i ? h("span.vs", { "aria-hidden": "true" }, "vs") : null,
      h("a.host", { href: `#/player/${encodeURIComponent(name)}` }, name)]),
    h("span.badge", {}, glyphs(SUIT_GLYPHS[table.suits] ?? ""), suits),
    h("span.badge", {}, limit ? t("minutes", { n: Math.round(limit / 60) }) : t("unlimited")),
    table.level && table.level !== "any" ? h("span.badge", {}, levelName(table.level)) : null,
    table.difficulty && table.difficulty !== "any" ? h("span.badge", {}, difficultyLabel(table.difficulty)) : null,
    table.rated ? h("span.badge.rated", {}, t("rated")) : null,
    table.public === false ? h("span.badge", {}, t("private")) : null);
}
