// The duel table's drawing (table.js keeps the state and answers events): my game with
// its heads-up display, or the opponent's watched once mine is over; the ready, waiting,
// rematch, "table gone" and result pages; the clocks. Every function reads the table's
// state `st` and calls back through `st.acts`, never the other way round.
import { h, clear, formatClock, clockTime, showText } from "./dom.js";
import { t, lang } from "./i18n.js";
import { createBoard } from "./board.js";
import { icon } from "./face.js";
import { tableSummary } from "./summary.js";
import { OVER } from "./session.js";
import { stat, drawButtons } from "./hud.js";

const LOW_MS = 60_000; // the clock turns red under one minute

// While a game is on screen the table fills the viewport: the heads-up display (both
// players, the stock and completed runs, the game buttons), a status line, the board.
export function renderTable(st) {
  const { el, game } = st;
  if (game && !st.gone && !st.result && !st.ready) return renderGame(st);
  el.classList.remove("game");
  st.drawn = null;
  if (st.gone) return renderGone(st);
  if (outsider(st) && !st.result) return renderOutsider(st);
  if (st.result) return renderResult(st);
  if (st.ready) return renderReady(st);
  if (st.wantNew) return renderRematchWait(st);
  renderWaiting(st);
}

// The game screen is built once for a shape (my game, my finished game, the opponent's
// watched) in a language, then redrawn in place: news that changes neither (the opponent's
// game ending, a step from my other tab) keeps the board and the buttons under a finger.
function renderGame(st) {
  const { el, game } = st;
  const over = OVER.has(game.status);
  const watching = over && st.watch;
  const board = watching ? st.watchBoard : st.board;
  const shape = `${st.matchId} ${watching ? "watch" : over ? "over" : "play"} ${lang()}`;
  if (board && st.drawn?.shape === shape && st.drawn.board === board && el.contains(st.drawn.bar)) {
    st.drawn.bar.querySelectorAll(":scope > [data-news]").forEach((node) => node.remove());
    st.drawn.bar.prepend(...statusNews(st));
    renderScores(st);
    renderButtons(st);
    return;
  }
  const boardHost = h("div.boardhost");
  const trayHost = h("div.trayhost");
  const statusHost = h("div.statushost");
  const bar = h("div.statusbar", statusNews(st), st.social?.el, statusHost);
  el.classList.add("game");
  clear(el,
    h("h1.sr", {}, `${t("table")} ${st.tableId}`),
    h("div.players", { id: "scores" }),
    trayHost,
    h("div.controls", { id: "actions" }),
    bar,
    boardHost);
  st.board?.destroy();
  st.watchBoard?.destroy();
  const opponentName = st.nameOf(st.opponent?.player_id) || t("opponent");
  if (watching) {
    st.watchBoard = createBoard({
      root: boardHost, trayHost, statusHost, rules: game.rules, readOnly: true,
      onAction: async () => ({ ok: false }), title: t("opponentBoard", { name: opponentName }),
    });
    st.watchBoard.update(st.watch.view, { animate: false });
  } else {
    st.board = createBoard({
      root: boardHost, trayHost, statusHost, rules: game.rules, onAction: st.acts.act, readOnly: over, title: t("board"),
    });
    st.board.update(game.view, { animate: false });
  }
  st.drawn = { shape, board: watching ? st.watchBoard : st.board, bar };
  renderScores(st);
  renderButtons(st);
}

// The status line's news, each marked data-news so a redraw in place replaces just these.
function statusNews(st) {
  const { game } = st;
  const over = OVER.has(game.status);
  const watching = over && st.watch;
  const opponentName = st.nameOf(st.opponent?.player_id) || t("opponent");
  const news = [
    // Eight runs done: said plainly (a phone's panels hide the state words).
    game.status === "won" ? h("p.banner.badge.won", { id: "my-win", role: "status" }, icon("trophy"), t("allRunsDone")) : null,
    watching ? h("h2.watching.badge", { id: "watching" }, icon("eye"),
      `${t("spectating", { name: opponentName })} (${t("readOnly")})`) : null,
    st.alone() ? h("p.banner.badge", { role: "status", id: "quick-later" }, t("qdLater"))
      : over && !watching ? h("p.banner.badge", { role: "status" }, t("youFinished", { name: opponentName })) : null,
    st.notice ? h("p.error", { role: "alert" }, st.notice) : null,
  ].filter(Boolean);
  for (const node of news) node.dataset.news = "";
  return news;
}

// Game buttons: an icon, a label and the key that does the same (drawn by CSS from
// data-key, so the button's name stays its label); after my game, Finish becomes Leave.
// data-short: the word a phone's narrow button shows instead of a long label (CSS).
export function renderButtons(st) {
  const { el, game, acts } = st;
  const host = el.querySelector("#actions");
  if (!host || !game) return;
  const over = OVER.has(game.status);
  drawButtons(host, [
    { id: "deal", icon: "deal", text: t("deal"), props: { disabled: over || !game.view.stock, onclick: () => st.board.deal(), "aria-keyshortcuts": "Space", "data-key": t("keySpaceName") } },
    { id: "undo", icon: "undo", text: t("undo"), props: { disabled: over, "aria-disabled": !over && !game.view.can_undo ? "true" : null, onclick: () => st.board.undo(), "aria-keyshortcuts": "Control+Z", "data-key": t("keyUndoName"), "data-short": t("undoShort") } },
    { id: "hint", icon: "hint", text: t("hint"), props: { disabled: over, onclick: acts.hint, "aria-keyshortcuts": "I", "data-key": "I" } },
    over ? { id: "leave", icon: "leave", text: t("leave"), props: { class: "quit", onclick: acts.leave } }
      : { id: "finish", icon: "finish", text: t("finish"), props: { class: "quit", onclick: acts.finish } },
  ]);
}

export function renderScores(st) {
  const { el, game, watch, me } = st;
  const host = el.querySelector("#scores");
  if (!host || !game) return;
  const o = st.opponent;
  const theirName = st.nameOf(o?.player_id) || t("opponent");
  if (st.alone() && t("qdLater") === "qdLater") import("./quick.js").then(st.render); // its words
  const theirStatus = watch ? watch.status : o?.status;
  const mine = h("div.player.me", { role: "group", "aria-label": t("you") },
    h("div.who", h("span.dot.on.self", { title: t("online") }), h("span.name", {}, me.name), h("span.tag", {}, t("you"))),
    clock(leftNow(game), "my-clock"),
    h("div.stats", stat(t("score"), game.score, "my-score"), stat(t("runs"), runsOf(game.view.removed.length))),
    h("div.state", {}, stateText(game.status)));
  const theirs = h("div.player.them", { role: "group", "aria-label": t("opponent") },
    h("div.who",
      h("span", { class: `dot ${o?.online ? "on" : ""}`, title: o?.online ? t("online") : t("offline") },
        h("span.sr", {}, o?.online ? t("online") : t("offline"))),
      h("a.name", { href: o && `#/player/${encodeURIComponent(st.nameOf(o.player_id) || "")}` }, theirName)),
    clock(o ? leftNow(o, o.time_left_ms) : null, "their-clock"),
    h("div.stats", stat(t("score"), watch ? watch.score : o?.score ?? 0, "their-score"),
      stat(t("runs"), runsOf(watch ? watch.view.removed.length : o?.runs ?? 0))),
    h("span.state", { id: "their-state", class: o?.status === "not_started" || theirStatus === "did_not_start" ? "news" : "" },
      st.alone() ? t("qdLaterShort") : o?.status === "not_started" && o.start_deadline
        ? t("notStartedUntil", { name: theirName, time: clockTime(o.start_deadline) })
        : stateText(theirStatus, o?.status === "not_started")));
  clear(host, mine, h("span.vs", { "aria-hidden": "true" }, "vs"), theirs);
}

function stateText(status, notStarted = false) {
  if (notStarted) return t("notStarted");
  return status && OVER.has(status) ? t(statusKey(status)) : t("playing");
}

export function statusKey(status) {
  return { timeout: "timed_out", finished: "finished_early" }[status] || status;
}

// A daily-duel table says so: its one match deals today's daily deal.
const heading = (st) => (st.table?.daily_date ? t("dailyDuel") : t("table"));
// Both players once two are seated (it named the host only, as if alone at the table).
const seatedNames = (table) => (table.seats || []).map((s) => s.name).filter(Boolean);
const summaryLine = (st) => (st.table ? h("p.lead", {}, tableSummary(st.table,
  seatedNames(st.table).length > 1 ? seatedNames(st.table) : undefined)) : null);
const noticeLine = (st) => (st.notice ? h("p.error", { role: "alert" }, st.notice) : null);
const newsLine = (st) => (st.news ? h("p.banner.news", { role: "status", id: "table-news" }, st.news) : null);

// Until when I may start is said (the no-show rule): a player who steps away from this
// screen would otherwise lose without a word. Once it has passed, opening my game
// shows it over and watches the other player's.
function renderReady(st) {
  const { late, startBy } = st;
  const other = st.nameOf(undefined) || t("opponent");
  const until = late ? t("startedTooLate") : startBy ? t("startBefore", { time: clockTime(startBy) }) : null;
  clear(st.el, h("div.page.narrow",
    h("h1", {}, heading(st)),
    summaryLine(st),
    h("section.panel.center",
      // Once my time to start has passed, "your clock starts when you open" is no longer
      // true, and there is a game to watch only if the other player started theirs.
      late ? null : h("p.banner", { role: "status" }, t("readyText", { name: other })),
      until ? h("p", { id: "start-by", class: late ? "error" : "note" }, until) : null,
      h("div.row.center",
        late && !st.otherStarted ? null : h("button.primary.big", { type: "button", id: "start", onclick: st.acts.openGame },
          late ? t("watchName", { name: other }) : t("start")),
        // Not "Leave": the seat cannot be given up while this game is still to be
        // played (the server refuses); the lobby's My tables leads back here.
        h("button", { type: "button", id: "to-lobby", onclick: () => st.app.go("#/") }, icon("leave"), t("backToLobby"))))));
}

// Not one of the table's seats (a link passed on, a page kept from before I left): there
// is no game of mine to start, nor anyone to invite. A free seat of an open table may be
// taken, as from the lobby; a match in progress is its players' own until both games are
// over (docs/protocol.md, "Spectating"). Drawing the seated player's screen instead, a
// "Start my game" did nothing and the waiting screen asked for an invitation link (403).
export const outsider = (st) => Boolean(st.table) && !(st.table.seats || []).some((s) => s.player_id === st.me.id);

function renderOutsider(st) {
  const { table } = st;
  const seats = table.seats || [];
  const names = new Intl.ListFormat(lang(), { type: "conjunction" }).format(seats.map((s) => s.name).filter(Boolean));
  const free = table.status === "open" && seats.length < 2 && !table.quick && !table.daily_date;
  const playing = table.match_id && table.match_status === "playing";
  const said = free ? t("seatFree", { names }) : playing ? t("outsiderPlaying", { names }) : t("notSeatedHere");
  clear(st.el, h("div.page.narrow",
    h("h1", {}, heading(st)),
    summaryLine(st),
    noticeLine(st),
    h("p.banner", { role: "status", id: "outsider" }, said),
    h("div.row",
      free ? h("button.primary", { type: "button", id: "join-here", onclick: st.acts.join }, t("join")) : null,
      h("a.button", { href: "#/", id: "to-lobby" }, icon("leave"), t("backToLobby")))));
}

function renderGone(st) {
  clear(st.el, h("div.page.narrow",
    h("h1", {}, t("table")),
    h("p.banner", { role: "alert", id: "table-gone" }, st.notice),
    h("div.row", h("a.button.primary", { href: "#/", id: "to-lobby" }, t("backToLobby")))));
}

export function renderWaiting(st) {
  const { el, table, acts } = st;
  const code = table?.invite_code;
  const link = h("input", { id: "invite-link", readonly: true, value: code ? st.app.inviteUrl(code) : "", "aria-label": t("inviteLink") });
  // Same field across redraws: typing survives table updates. Focus is taken before the
  // new tree takes the field (clear() can no longer see it then).
  const friend = el.querySelector("#friend-name") || h("input", { id: "friend-name", name: "friend", autocomplete: "off" });
  const typing = document.activeElement === friend;
  clear(el, h("div.page.narrow",
    h("h1", {}, heading(st)),
    summaryLine(st),
    noticeLine(st),
    newsLine(st),
    h("p.banner.waiting", { role: "status" }, h("span.spinner", { "aria-hidden": "true" }), t("waiting")),
    h("section.panel", { "aria-labelledby": "inv-h" },
      h("h2", { id: "inv-h" }, t("inviteFriend")),
      h("div.row.field", link,
        h("button.primary", { type: "button", id: "copy-link", onclick: () => acts.copyLink(link) }, icon("copy"), t("copyLink")),
        h("span.note", { role: "status" }, st.copied)),
      h("form.row.field", { onsubmit: (e) => acts.inviteFriend(e, friend) },
        h("label", { for: "friend-name" }, t("friendName")), friend,
        h("button", { type: "submit" }, icon("invite"), t("send")))),
    h("div.row", h("button", { type: "button", onclick: acts.leave }, icon("leave"), t("leave")))));
  if (typing) friend.focus();
  if (table && !table.quick && !code && (table.seats || []).length < 2 && !st.wantNew) acts.makeLink();
}

// I asked for a rematch: the other player has the result page with Accept / Decline.
function renderRematchWait(st) {
  clear(st.el, h("div.page.narrow",
    h("h1", {}, heading(st)),
    summaryLine(st),
    noticeLine(st),
    h("p.banner.waiting", { role: "status", id: "rematch-wait" }, h("span.spinner", { "aria-hidden": "true" }),
      t("rematchWaiting", { name: st.nameOf(undefined) || t("opponent") })),
    h("div.row", h("button", { type: "button", onclick: st.acts.leave }, icon("leave"), t("leave")))));
}

// The other player asked for a rematch (live, through the table's news): say so on the
// result, with the answers at hand.
function rematchNotice(st) {
  const other = (st.table?.seats || []).find((s) => s.player_id !== st.me.id);
  if (!other?.wants_new_game || st.wantNew) return null;
  return h("p.banner.rematch", { role: "status", id: "rematch-asked" }, t("rematchAsked", { name: other.name }),
    h("span.answers", {}, // the two answers wrap together on a phone, never apart
      h("button.primary", { type: "button", id: "rematch-accept", onclick: st.acts.newGame }, t("accept")),
      h("button", { type: "button", id: "rematch-decline", onclick: st.acts.leave }, t("decline"))));
}

function renderResult(st) {
  const { el, replay, acts } = st;
  if (replay) {
    return clear(el, st.replayView({ ...replay, player: st.nameOf(replay.player_id), onClose: acts.closeReplay }));
  }
  if (!st.resultView) {
    import("./result.js").then((m) => { st.resultView = m.resultView; if (st.result) st.render(); }).catch(console.error);
    return;
  }
  const alone = (st.table?.seats || []).length < 2;
  clear(el, rematchNotice(st),
    newsLine(st),
    st.resultView({
      social: st.social?.el,
      result: st.result, me: st.me, nameOf: st.nameOf, suits: st.table?.suits ?? st.game?.rules.suits, rated: st.table?.rated,
      // Alone at the table: a new game needs a new opponent, invited from the waiting screen.
      onNewGame: alone ? acts.inviteNew : acts.newGame, onLeave: acts.leave,
      onReplay: (playerId) => st.app.socket.send({ type: "get_replay", match_id: st.matchId, player_id: playerId }),
    }));
}

// ---- the clocks: both panels' figures, between frames
export function tickClocks(st) {
  const { watch, opponent } = st;
  const o = watch && opponent ? { ...opponent, status: watch.status } : opponent;
  tickClock(st.el, "#my-clock", leftNow(st.game));
  tickClock(st.el, "#their-clock", o ? leftNow(o, o.time_left_ms) : null);
}

function tickClock(el, selector, left) {
  const node = el.querySelector(selector);
  if (!node) return;
  showText(node, formatClock(left));
  node.parentElement.classList.toggle("low", left !== null && left < LOW_MS);
}

const runsOf = (n) => `${n}/8`;

function clock(left, id) {
  return h("div.clock", { class: left !== null && left < LOW_MS ? "low" : "" },
    h("span.sr", {}, t("clock")), h("span", { id }, formatClock(left)));
}

// Time left now: the server's figure minus what has elapsed since it was received.
function leftNow(game, left = game?.left) {
  if (!game || left === null || left === undefined) return null;
  if (game.status !== "playing") return left;
  return left - (Date.now() - (game.at || Date.now()));
}
