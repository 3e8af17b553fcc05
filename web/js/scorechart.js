// The duel's result: both players' score over their game's clock on one chart (SVG), from
// the replays of the two games (GET /api/replays/duel/{game_id}: the score after every
// step). Loaded by result.js once the result is shown, never by the first page.
import { t } from "./i18n.js";
import { duration } from "./extra.js";
import { lineChart } from "./chart.js";
import { historyStyled } from "./replay.js";
import "./history-words.js";

async function get(path) {
  const response = await fetch(`/api${path}`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${response.status} ${path}`);
  return response.json();
}

// Fills `host` with the chart of match `matchId`; names come from `nameOf(player_id)`,
// and the time each game lasted (its clock when it ended) from `endOf(player_id)`.
export async function fillScoreChart(host, matchId, nameOf, endOf = () => null) {
  const match = await get(`/matches/${matchId}`);
  const games = match.games.filter((g) => g.started_at && g.game_id);
  const replays = await Promise.all(games.map((g) => get(`/replays/duel/${g.game_id}`)));
  await historyStyled;
  const series = replays.map((r) => ({ label: nameOf(r.player_id) ?? r.player_name, points: pointsOf(r, endOf(r.player_id)) }));
  if (!series.length || !host.isConnected) return;
  const summary = replays.map((r, i) => t("hxScoreChart", {
    name: series[i].label, score: r.steps.at(-1).score, time: duration(series[i].points.at(-1)[0] * 60000),
  })).join(" ");
  const clock = (x) => (x >= 0 ? duration(x * 60000) : ""); // "0:45", "12:30"
  host.hidden = false;
  host.replaceChildren(
    Object.assign(document.createElement("h2"), { textContent: t("hxScoreTime"), id: "score-chart-h" }),
    lineChart({ id: "score-chart", summary, width: host.clientWidth || 640, xTitle: t("hxTime"), yTitle: t("hxScore"),
      xLabel: clock, yLabel: (y) => String(Math.round(y)), xLeast: 1 / 60, yLeast: 1, series }));
}

// The score after each step, in minutes of the game's clock, held until the game ended:
// a game that ran out of time after a few moves drew a line stopping at its last move,
// and a chart of 0:00–1:00 for a 10-minute duel.
export function pointsOf(replay, endedMs) {
  const points = replay.steps.map((s, i) => [(s.ms ?? i * 1000) / 60000, s.score]);
  const [lastX, lastScore] = points.at(-1);
  return endedMs && endedMs / 60000 > lastX ? [...points, [endedMs / 60000, lastScore]] : points;
}
