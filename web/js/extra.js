// What the screens loaded on demand share (Solo, Daily, Leaderboards, solo stats, badges):
// their words and stylesheet, loaded once and awaited before the first drawing, and a few
// small pieces of drawing (suit counts, durations, the pager, badge names).
import { h } from "./dom.js";
// How long a game took: one formatter for every screen (dom.js), named here for the
// solo and history screens that have always imported it from this module.
export { duration } from "./dom.js";
import { t, lang, addWords } from "./i18n.js";
import { WORDS } from "./solo-words.js";
import { icon } from "./face.js";

addWords(WORDS);

// The stylesheet of these screens: not part of the first page's budget.
export const styled = new Promise((resolve) => {
  if (document.querySelector("link[data-extra]")) return resolve();
  const link = h("link", { rel: "stylesheet", href: "/css/extra.css", "data-extra": "1" });
  link.addEventListener("load", resolve);
  link.addEventListener("error", resolve); // unstyled beats blank
  document.head.append(link);
});

const SUITS = { 1: "oneSuit", 2: "twoSuits", 4: "fourSuits" };
const GLYPHS = { 1: "♠", 2: "♠♥", 4: "♠♥♦♣" };
export const suitsLabel = (n) => t(SUITS[n] ?? "oneSuit");

// ♠♥ as the lobby draws them: red suits in red, hidden from screen readers.
export const glyphs = (n) => h("span.suits", { "aria-hidden": "true" },
  [...(GLYPHS[n] ?? "")].map((g) => h("span", { class: "♥♦".includes(g) ? "rs" : "" }, g)));

// 61 000 ms → "1:01"; an hour or more → "1:02:03".
export const number = (n) => (n === null || n === undefined ? "—" : Number(n).toLocaleString(lang()));

export function day(iso) {
  if (!iso) return "—";
  const [y, m, d] = iso.slice(0, 10).split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(lang(), { timeZone: "UTC", dateStyle: "medium" });
}

export const difficultyName = (code) => (code ? TABLE().difficultyNames?.[code] ?? code : "");
const TABLE = () => WORDS[lang()] ?? WORDS.en;

// A badge's title and description in the page's language (the server's English for a code
// this client does not know yet).
export function badgeWords(badge) {
  const words = TABLE().badges[badge.code];
  return { title: words?.[0] ?? badge.title ?? badge.code, description: words?.[1] ?? badge.description ?? "" };
}

// The pager under a paged list: First, Previous, "Page p of n", Next, Last.
export function pager({ page, total, pageSize, onPage, id }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const button = (key, to, glyph) => h("button", {
    type: "button", id: `${id}-${key}`, disabled: to < 1 || to > pages || to === page,
    onclick: () => onPage(to), "aria-label": t(key), title: t(key),
  }, glyph);
  return h("nav.pager", { "aria-label": t("paging") },
    button("first", 1, "«"), button("prev", page - 1, "‹"),
    h("span.pageof", { id: `${id}-of` }, t("pageOf", { page, pages })),
    button("next", page + 1, "›"), button("last", pages, "»"));
}

// A medal for a badge: its code picks one of a few shapes, the title is the text.
export function medal(badge, { earned = true } = {}) {
  const { title, description } = badgeWords(badge);
  return h("div.medal", { class: earned ? "" : "locked", dataset: { code: badge.code } },
    h("span.disc", { "aria-hidden": "true" }, icon("trophy")),
    h("span.words", {}, h("strong", {}, title), h("span.muted", {}, description),
      badge.earned_at ? h("span.when", {}, t("earnedOn", { date: day(badge.earned_at) })) : null));
}

// "2025-03-10" ± days, in UTC (the daily deal's calendar).
export function shiftDay(iso, days) {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
