// Leaderboards: solo points (all time or this week, per suit count), today's daily deal
// (times and points, once my own daily of today is over), daily streaks (current or best)
// and duel ratings (per suit count); each paged. Route #/leaderboards/solo|today|daily|duel;
// the choices are kept while the player looks around.
import { h, clear } from "./dom.js";
import { t, levelName, problemText } from "./i18n.js";
import { api } from "./api.js";
import { icon } from "./face.js";
import { styled, glyphs, number, day, shiftDay, duration, pager } from "./extra.js";

await styled;

const PAGE_SIZE = 20;
const KINDS = ["solo", "today", "daily", "duel"];
const choice = { suits: 2, period: "all", order: "current" }; // remembered across visits

export function boardsScreen(app, { kind = "solo" }) {
  const el = h("section.screen.boards");
  let tab = KINDS.includes(kind) ? kind : "solo";
  let page = 1;
  let data = null;
  let message = "";
  let loads = 0;
  let today = null; // the daily deal's day (UTC), as the server last said it

  async function load() {
    const mine = ++loads; // the newest choice wins over answers still on their way
    const query = { page, page_size: PAGE_SIZE };
    try {
      const answer = tab === "solo" ? await api.soloBoard({ ...query, suits: choice.suits, period: choice.period })
        : tab === "today" ? await todayBoard(query)
          : tab === "daily" ? await api.streakBoard({ ...query, order: choice.order })
            : await api.ratingBoard({ ...query, suits: choice.suits });
      if (mine !== loads) return;
      data = answer;
      message = "";
    } catch (problem) {
      if (mine !== loads) return;
      data = null;
      message = problemText(problem);
    }
    render();
  }

  // Today's board opens once my daily of today is over: asked for only then (GET /daily's
  // board_visible), as the Daily screen does; asking before earned a 403
  // daily_not_finished and an error in the console. Meanwhile the tab shows yesterday's
  // board, which is public (it only sent the player to the Daily screen). Past midnight
  // UTC the day moves on.
  async function todayBoard(query) {
    const info = await api.daily();
    if (info.board_visible) {
      today = info.day;
      return api.dailyBoard(today, query);
    }
    today = shiftDay(info.day, -1);
    return { ...(await api.dailyBoard(today, query)), locked: true };
  }

  function pick(name, value) {
    if (name === "tab") {
      tab = value;
      history.replaceState(null, "", `#/leaderboards/${value}`);
    } else {
      choice[name] = value;
    }
    page = 1;
    data = null;
    render();
    load();
  }

  function render() {
    const seg = (name, label, options, current) => h("fieldset", {}, h("legend.sr", {}, label),
      h("div.seg", options.map(([value, text, glyph]) => h("label", {},
        h("input", { type: "radio", name: `lb-${name}`, id: `lb-${name}-${value}`, value, checked: current === value, onchange: () => pick(name, value) }),
        glyph ? glyphs(glyph) : null, text))));
    const suitsSeg = seg("suits", t("suits"), [[1, t("oneSuit"), 1], [2, t("twoSuits"), 2], [4, t("fourSuits"), 4]], choice.suits);
    clear(el,
      h("h1", {}, icon("boards"), " ", t("boardsTitle")),
      seg("tab", t("boardsTitle"), [["solo", t("soloPoints")], ["today", t("daily")], ["daily", t("dailyStreaks")],
        ["duel", t("duelRatings")]], tab),
      h("section.panel.board", { "aria-labelledby": "lb-h" },
        h("h2", { id: "lb-h" }, {
          solo: t("soloPoints"), today: today ? t("dailyBoard", { date: day(today) }) : t("daily"),
          daily: t("dailyStreaks"), duel: t("duelRatings"),
        }[tab]),
        tab === "today" ? null : h("div.lbfilters",
          tab === "daily" ? seg("order", t("order"), [["current", t("current")], ["best", t("best")]], choice.order) : suitsSeg,
          tab === "solo" ? seg("period", t("period"), [["all", t("allTime")], ["week", t("thisWeek")]], choice.period) : null),
        message ? h("p.error", { role: "alert" }, message) : null,
        data ? table() : h("p.muted", {}, "…"),
        data && data.total > PAGE_SIZE ? pager({
          page, total: data.total, pageSize: PAGE_SIZE, id: "lb-pager", onPage: (p) => { page = p; load(); },
        }) : null));
  }

  function table() {
    const locked = data.locked ? h("p.muted", { id: "lb-locked" }, t("boardYesterday"), " ",
      h("a", { href: "#/daily", id: "lb-to-daily" }, t("dailyPlay"))) : null;
    return [locked, rows()];
  }

  function rows() {
    if (!data.items.length) return h("p.muted", { id: "lb-empty" }, t("nobodyYet"));
    const columns = {
      solo: [[t("points"), (r) => number(r.points)], [t("wins"), (r) => r.wins]],
      today: [[t("time"), (r) => duration(r.elapsed_ms)], [t("actions"), (r) => r.actions],
        [t("points"), (r) => number(r.points)]],
      daily: [[t("current"), (r) => t("days", { n: r.current })], [t("best"), (r) => t("days", { n: r.best })],
        [t("lastWon"), (r) => day(r.last_won)]],
      duel: [[t("rating"), (r) => Math.round(r.rating)], [t("bandCol"), (r) => levelName(r.band)], [t("games"), (r) => r.games]],
    }[tab];
    return h("table.scoresheet.boardtable", { id: "lb-table", "aria-describedby": "lb-h" },
      h("thead", {}, h("tr", {}, [t("rankCol"), t("player"), ...columns.map(([name]) => name)]
        .map((text) => h("th", { scope: "col" }, text)))),
      h("tbody", {}, data.items.map((row) => h("tr", { class: row.player_id === app.me.id ? "mine" : "" },
        h("td", {}, row.rank),
        h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(row.name)}` }, row.name)),
        columns.map(([, value]) => h("td", {}, value(row)))))));
  }

  render();
  load();
  return { el, render };
}
