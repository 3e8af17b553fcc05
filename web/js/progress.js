// A player's past on their page: every finished duel, solo and daily game (paged, newest
// first) with its replay and "play this deal again", the statistics per mode and suit
// count, and the rating per suit count over the rated matches as a chart; and the replay
// screen of any finished game (#/player/NAME/replay/solo|duel/ID). Loaded with player.js.
import { h, clear } from "./dom.js";
import { t, lang, problemText } from "./i18n.js";
import { ApiError } from "./api.js";
import { icon } from "./face.js";
import { suitsLabel, glyphs, duration, number, day, pager } from "./extra.js";
import { playLink } from "./result.js";
import { lineChart } from "./chart.js";
import { replayView, historyStyled } from "./replay.js";
import "./history-words.js";

export { historyStyled };

const PAGE_SIZE = 10;
const MODE = { duel: "hxDuel", solo: "hxSolo", daily: "hxDaily" };
const RESULT = { won: "hxWon", lost: "hxLost", draw: "hxDraw", abandoned: "hxAbandoned", expired: "hxExpired" };

// The REST paths of this module (public: a player's past is nobody's secret).
async function get(path, query = {}) {
  const url = new URL(`/api${path}`, location.origin);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(data, response.status);
  return data;
}

export const replayPath = (name, item) => `#/player/${encodeURIComponent(name)}/replay/${item.kind === "duel" ? "duel" : "solo"}/${item.game_id}`;
const todayUtc = () => new Date().toISOString().slice(0, 10);
const percent = (rate) => `${Math.round(rate * 100)} %`.replace(" ", lang() === "en" ? "" : "\u202f");
const when = (iso) => (iso ? new Date(iso).toLocaleDateString(lang(), { dateStyle: "medium" }) : "—");

// The games list, statistics and rating chart of `player` ({id, name}); self: my own page.
export function progressSection({ player, self }) {
  const el = h("div.progress");
  let games = null;
  let stats = null;
  let page = 1;
  let message = "";

  async function load(to = page) {
    try {
      [games, stats] = await Promise.all([get(`/players/${player.id}/games`, { page: to, page_size: PAGE_SIZE }),
        stats ?? get(`/players/${player.id}/stats`)]);
      page = to;
    } catch (problem) {
      message = problemText(problem);
    }
    render();
  }

  function render() {
    clear(el,
      h("section", { "aria-labelledby": "games-h" },
        h("h2", { id: "games-h" }, t(self ? "hxMyGames" : "hxGames")),
        message ? h("p.error", { role: "alert" }, message) : null,
        games ? gameList(games.items) : null,
        games && games.total > PAGE_SIZE ? pager({ page, total: games.total, pageSize: PAGE_SIZE, id: "games-page", onPage: load }) : null),
      stats?.modes.length ? statsTable(stats.modes) : null,
      stats ? ratingChart(stats.ratings) : null);
  }

  function gameList(items) {
    if (!items.length) return h("p.muted", { id: "no-games" }, t("hxNoGames"));
    return h("ol.gamelist", { id: "games" }, items.map((item) => gameRow(item)));
  }

  function gameRow(item) {
    const against = item.kind === "duel" ? t("hxVs", { name: item.opponent_name })
      : item.kind === "daily" ? day(item.daily_date) : t("hxDeal", { n: item.number });
    // One figure per kind, each with its own unit: a duel's two scores, a solo or daily
    // game's points (a game not won earns none), never a solo game's in-play score.
    const duel = item.kind === "duel";
    const score = duel ? `${item.score} – ${item.opponent_score}` : t("hxPoints", { n: number(item.points ?? 0) });
    // Today's daily deal is everyone's one attempt: not offered to rehearse until tomorrow.
    const again = item.play && !(item.kind === "daily" && item.daily_date === todayUtc())
      ? playLink(item.play.number, item.play) : null;
    return h("li.gamerow", { class: `r-${item.result}`, dataset: { kind: item.kind, game: item.game_id } },
      h("span.what", h("strong", {}, t(MODE[item.kind])), " ", glyphs(item.suits), h("span.sr", {}, suitsLabel(item.suits)), " ", h("span", {}, against)),
      h("span.res", {}, t(RESULT[item.result] ?? item.result)),
      h("span.fig", h("span.sr", {}, `${t(duel ? "hxScore" : "hxPointsLabel")}: `), score),
      h("span.fig", h("span.sr", {}, `${t("hxTime")}: `), duration(item.time_ms)),
      h("time.when", { datetime: item.ended_at ?? "" }, when(item.ended_at)),
      h("span.links",
        item.replay ? h("a", { href: replayPath(player.name, item), class: "replaylink" }, icon("replay"), t("hxReplay")) : null,
        again ? h("a", { href: again, class: "againlink" }, t("hxPlayAgain")) : null));
  }

  function statsTable(modes) {
    const heads = [t("hxMode"), t("hxPlayed"), t("hxWins"), t("hxWinRate"), t("hxStreakNow"), t("hxStreakBest"), t("hxBestTime"), t("hxBest")];
    return h("section", { "aria-labelledby": "stats-h" }, h("h2", { id: "stats-h" }, t("hxStats")),
      h("div.tablewrap", { tabindex: 0, role: "region", "aria-labelledby": "stats-h" },
        h("table.scoresheet.modestats", { id: "mode-stats" },
          h("thead", {}, h("tr", {}, heads.map((text) => h("th", { scope: "col" }, text)))),
          h("tbody", {}, modes.map((m) => h("tr", { dataset: { mode: m.mode, suits: m.suits } },
            h("th", { scope: "row" }, t(MODE[m.mode]), " ", glyphs(m.suits), h("span.sr", {}, suitsLabel(m.suits))),
            h("td", {}, m.played), h("td", {}, m.won), h("td.rate", {}, percent(m.win_rate)),
            h("td", {}, m.current_streak), h("td", {}, m.best_streak),
            h("td", {}, duration(m.best_time_ms)), h("td.best", {}, best(m))))))));
  }

  // The best of a mode: a duel's best score, a solo or daily win's most points (unit shown).
  function best(m) {
    return m.best_points === null || m.mode === "duel" ? number(m.best_points) : t("hxPoints", { n: number(m.best_points) });
  }

  function ratingChart(ratings) {
    const body = ratings.length ? ratingFigure(ratings) : h("p.muted", { id: "no-rated" }, t("hxNoRated"));
    return h("section", { "aria-labelledby": "rating-h" }, h("h2", { id: "rating-h" }, t("hxRatingTime")), body);
  }

  function ratingFigure(ratings) {
    const summary = ratings.map(({ suits, points }) => {
      const values = points.map((p) => Math.round(p.rating));
      return t("hxRatingChart", { suits: suitsLabel(suits), first: values[0], last: values.at(-1), n: values.length - 1,
        low: Math.min(...values), high: Math.max(...values) });
    }).join(" ");
    const width = Math.min(640, (el.clientWidth || document.documentElement.clientWidth) - 8);
    return lineChart({
      id: "rating-chart", summary, width, xTitle: t("hxMatches"), yTitle: t("hxRatingAxis"),
      xLabel: (x) => (Number.isInteger(x) ? String(x) : ""), yLabel: (y) => String(Math.round(y)), yLeast: 1,
      series: ratings.map(({ suits, points }) => ({ label: suitsLabel(suits), cls: `suits${suits}`,
        points: points.map((p, i) => [i, p.rating]) })),
    });
  }

  render();
  load();
  return { el, render };
}

// The replay of one finished game of `name`: kind "solo" (solo and daily) or "duel".
export function replayScreen(app, { name, kind, gameId }) {
  const el = h("section.screen.replayscreen");
  let data = null;
  let message = "";
  // "-" (never a name: names start with a letter) when the link did not know the player's
  // name (a solo result); the replay says it.
  const owner = () => (name === "-" ? data?.player_name ?? app.me?.name : name);
  const back = () => app.go(`#/player/${encodeURIComponent(owner())}`);

  async function load() {
    try {
      data = await get(`/replays/${kind}/${gameId}`);
    } catch (problem) {
      message = problem.code === "game_in_progress" || problem.code === "match_not_over"
        ? `${t("hxNoReplay")} ${problemText(problem)}` : problemText(problem);
    }
    render();
  }

  function subtitle() {
    const what = data.kind === "duel" ? t("hxDuel") : data.kind === "daily" ? `${t("hxDaily")} · ${day(data.daily_date)}`
      : `${t("hxSolo")} · ${t("hxDeal", { n: data.number })}`;
    return `${what} · ${suitsLabel(data.suits)}`;
  }

  function render() {
    if (data) {
      return clear(el, replayView({ record: data.record, player: data.player_name, steps: data.steps, subtitle: subtitle(), onClose: back }));
    }
    clear(el, h("div.page.narrow",
      message ? h("p.error", { role: "alert", id: "replay-problem" }, message) : h("p.banner", { role: "status" }, "…"),
      h("a.button", { href: `#/player/${encodeURIComponent(owner())}` }, icon("back"), t("hxBackTo", { name: owner() }))));
  }

  render();
  load();
  // The replay's own key listener goes with its element; a new language draws it again.
  return { el, render: () => data && render() };
}
