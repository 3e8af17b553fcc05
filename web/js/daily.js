// The daily deal: today's 2-suit deal (one counted attempt), the player's streak, and once
// today's game is over the day's board (times and points); past days' boards are public.
import { h, clear } from "./dom.js";
import { t, problemText } from "./i18n.js";
import { api } from "./api.js";
import { icon } from "./face.js";
import { styled, suitsLabel, glyphs, duration, number, day, shiftDay, difficultyName, pager } from "./extra.js";

await styled;

const PAGE_SIZE = 20;

export function dailyScreen(app) {
  const el = h("section.screen.daily");
  let info = null; // GET /daily
  let open = null; // my daily of yesterday, still in progress: it may be won until midnight UTC
  let shown = null; // the board's day ("YYYY-MM-DD")
  let board = null; // a page of the board, or null while locked
  let page = 1;
  let message = "";

  async function load() {
    try {
      const mine = api.playerSoloGames(app.me.id, { kind: "daily", status: "playing", page_size: 5 }).catch(() => null);
      info = await api.daily();
      shown ??= info.day;
      // A daily game's window runs to the end of the next day (docs/solo-and-daily.md):
      // yesterday's game in progress can still be won today, so lead back to it.
      const yesterday = shiftDay(info.day, -1);
      open = (await mine)?.items.find((game) => game.daily_date === yesterday) ?? null;
    } catch (problem) {
      message = problemText(problem);
    }
    await loadBoard();
  }

  async function loadBoard() {
    board = null;
    if (info && (shown !== info.day || info.board_visible)) {
      try {
        board = await api.dailyBoard(shown, { page, page_size: PAGE_SIZE });
      } catch (problem) {
        if (problem.code !== "daily_not_finished") message = problemText(problem);
      }
    }
    render();
  }

  function render() {
    clear(el,
      h("h1", {}, icon("daily"), " ", t("dailyTitle")),
      h("p.lead", {}, t("dailyLead")),
      message ? h("p.error.panel", { role: "alert" }, message) : null,
      info ? h("div.columns2",
        h("div", today(), duelPanel(), boardPanel()),
        streakPanel()) : h("p.banner.waiting", { role: "status" }, h("span.spinner", { "aria-hidden": "true" }), t("dailyTitle")));
  }

  function today() {
    const mine = info.my_game;
    const playing = mine?.status === "playing";
    return h("section.panel.today", { "aria-labelledby": "today-h" },
      open ? h("div.banner.opendaily", { id: "open-daily" },
        h("p", {}, t("dailyOpen", { date: day(open.daily_date) })),
        h("a.button.primary", { href: `#/daily/${open.id}`, id: "continue-open-daily" },
          icon("deal"), t("dailyOpenContinue", { date: day(open.daily_date) }))) : null,
      h("h2", { id: "today-h" }, day(info.day)),
      h("p.summary", {},
        h("span.badge", {}, glyphs(info.suits), suitsLabel(info.suits)),
        info.difficulty ? h("span.badge", {}, difficultyName(info.difficulty)) : null,
        h("span.muted", { id: "daily-count" }, t("dailyPlayers", { players: info.players, winners: info.winners }),
          // Games still in progress are not "played" yet (they may still be won): said apart.
          info.playing ? ` · ${t("dailyPlaying", { n: info.playing })}` : "")),
      mine && !playing ? h("div.mine", { id: "my-daily" },
        h("p.banner", { role: "status" }, t("dailyDone"), " ", t("dailyComeBack")),
        mine.status === "won" ? h("dl.stats.stats-grid", {},
          info.my_rank ? tile(t("myRank"), t("rankOf", { rank: info.my_rank, n: info.winners }), "my-rank") : null,
          tile(t("time"), duration(mine.elapsed_ms)),
          tile(t("actions"), mine.actions),
          tile(t("points"), number(mine.points))) : h("p.muted", {}, t(mine.status === "expired" ? "expired" : "givenUp")))
        : h("div.row", h("button.primary.big", { type: "button", id: "play-daily", onclick: play },
          icon("deal"), playing ? t("dailyContinue") : t("dailyPlay"))));
  }

  // The optional daily duel: today's deal against a player of my band (not the attempt).
  function duelPanel() {
    const mine = info.duel_table_id;
    return h("section.panel.dailyduel", { "aria-labelledby": "duel-h" },
      h("h2", { id: "duel-h" }, icon("trophy"), " ", t("dailyDuel")),
      h("p.muted", {}, t("dailyDuelLead")),
      h("div.row", h("button", { type: "button", id: "daily-duel", onclick: duel },
        icon(mine ? "eye" : "friend"), mine ? t("dailyDuelOpen") : t("dailyDuelFind"))));
  }

  async function duel() {
    try {
      const table = info.duel_table_id ? { id: info.duel_table_id } : await api.dailyDuel();
      app.go(`#/table/${table.id}`);
    } catch (problem) {
      message = problemText(problem);
      load();
    }
  }

  function boardPanel() {
    const isToday = shown === info.day;
    const step = (days) => {
      shown = shiftDay(shown, days);
      page = 1;
      loadBoard();
    };
    return h("section.panel.dailyboard", { "aria-labelledby": "board-h" },
      h("div.row.boardhead",
        h("h2.grow", { id: "board-h" }, t("dailyBoard", { date: day(shown) })),
        h("button", { type: "button", id: "prev-day", onclick: () => step(-1), "aria-label": t("prevDay"), title: t("prevDay") }, "‹"),
        h("button", { type: "button", id: "next-day", disabled: isToday, onclick: () => step(1), "aria-label": t("nextDay"), title: t("nextDay") }, "›")),
      !board ? h("p.muted", { id: "board-locked" }, isToday ? t("boardLocked") : "")
        : !board.items.length ? h("p.muted", {}, t("noWinners"))
          : [h("table.scoresheet.boardtable", { id: "daily-table" },
            h("thead", {}, h("tr", {}, [t("rankCol"), t("player"), t("time"), t("actions"), t("points")]
              .map((text) => h("th", { scope: "col" }, text)))),
            h("tbody", {}, board.items.map((row) => h("tr", { class: row.player_id === app.me.id ? "mine" : "" },
              // An assisted win is listed after the ranked ones, marked, without a rank (docs/points.md).
              h("td", {}, row.rank ?? "—"),
              h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(row.name)}` }, row.name),
                row.assisted ? h("span.assisted", { title: t("assistedHelp") }, t("assistedMark")) : null,
                row.rescues ? h("span.rescued", { title: `${t("rescues")}: ${row.rescues}` }, icon("rescue"), row.rescues) : null),
              h("td", {}, duration(row.elapsed_ms)),
              h("td", {}, row.actions),
              h("td", {}, number(row.points)))))),
          board.total > PAGE_SIZE ? pager({
            page, total: board.total, pageSize: PAGE_SIZE, id: "daily-pager", onPage: (p) => { page = p; loadBoard(); },
          }) : null]);
  }

  function streakPanel() {
    const s = info.streak || { current: 0, best: 0, last_won: null };
    return h("section.panel.streak", { "aria-labelledby": "streak-h" },
      h("h2", { id: "streak-h" }, t("streak")),
      h("dl.stats.stats-grid", {},
        tile(t("streakNow"), t("days", { n: s.current }), "streak-current"),
        tile(t("streakBest"), t("days", { n: s.best }), "streak-best"),
        tile(t("lastWon"), s.last_won ? day(s.last_won) : "—", null, true)),
      assistedNote(info.my_game),
      h("a.button", { href: "#/leaderboards/daily" }, icon("boards"), t("dailyStreaks")));
  }

  async function play() {
    try {
      const game = info.my_game?.status === "playing" ? info.my_game : await api.startDaily();
      app.go(`#/daily/${game.id}`);
    } catch (problem) {
      message = problemText(problem);
      load();
    }
  }

  render();
  load();
  return { el, render };
}

function tile(label, value, id, wide) {
  return h("div", { class: wide ? "wide" : "" }, h("dt", {}, label), h("dd", { id }, value ?? "—"));
}

// An assisted win bridges the streak without growing it (docs/points.md, "Fair play"):
// said, or "1 won" beside "0 days" reads as a mistake.
function assistedNote(game) {
  return game?.status === "won" && game.assisted ? h("p.hint", { id: "streak-assisted" }, t("streakAssisted")) : null;
}
