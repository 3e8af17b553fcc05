// A duel table: waiting for an opponent (invite link), my game, then watching the
// opponent live once mine is over, then the result. This module keeps the table's state
// and answers what happens (REST, socket messages, the player's actions); my game's own
// state (view, score, seq, the action in flight) is a game session (session.js), and the
// drawing is tableview.js's.
import { h, announce, confirmBox, copyText } from "./dom.js";
import { t, problemText } from "./i18n.js";
import { api } from "./api.js";
import { resolveRules } from "./rules.js";
import { gameSession, DUEL, OVER, actionOf } from "./session.js";
import { showHintOn, sayEvents, enterPlaysHint } from "./hud.js";
import { renderTable, renderScores, renderButtons, renderWaiting, tickClocks, outsider } from "./tableview.js";

let replayView = null;
const POLL_MS = 1500;

export function tableScreen(app, { tableId }) {
  const el = h("section.screen.table");
  const st = {
    app, el, tableId, me: app.me,
    table: null,
    matchId: null,
    opponent: null, // Progress of the other player
    madeAt: madeAtClock(), // a Progress's at_ms on this page's clock
    watch: null, // the opponent's game once mine is over: {view, score, status, left, at}
    result: null,
    replay: null,
    board: null,
    watchBoard: null,
    poll: null,
    loads: 0, // loads of the table begun: only the newest one's answer is taken
    notice: "", // a refusal or a failure, said as an error
    news: "", // what happened at the table ("bob left the table."), said as news
    // An invitation sent from the lobby's friend list on the way here: said on arrival.
    copied: app.sent?.tableId === tableId ? t("inviteSentTo", { name: app.sent.name }) : "",
    ready: false, // a match waits for me to open my game
    startBy: null, // ...until then (ms): after it, my game is lost as "did not start"
    late: false, // that moment has passed: opening the game now only watches the other
    lateTimer: null,
    wantNew: false, // I asked for a new game; polling until the next match starts
    asking: false, // my rematch request is on its way: a "no" can come back before its answer
    gone: false, // the table is not there (any more) for me: said, with the way out
    resultView: null, // result.js, loaded with the first result (not a first-page need)
    social: null, // social.js: the score to beat, canned messages (loaded with my game)
    seen: new Map(), // player id → name, of everyone seen seated here
    // my game: {rules, view, score, seq, status, left, at, limit}; a rejection's view
    // redraws the board once the board has said "no" (it snaps back first)
    session: gameSession(DUEL, { onResync: (view) => queueMicrotask(() => st.board?.update(view, { animate: false })) }),
    get game() { return st.session.game; },
    nameOf: (playerId) => nameOf(st, playerId),
    alone: () => !st.opponent && st.table?.quick, // a quick duel nobody is paired into yet
  };
  app.sent = null;
  // What the drawing calls back.
  st.acts = {
    render: () => renderTable(st),
    load: () => load(st),
    openGame: () => openGame(st),
    act: (action) => act(st, action),
    finish: () => finish(st),
    hint: () => hint(st),
    leave: () => leave(st),
    newGame: () => newGame(st),
    inviteNew: () => inviteNew(st),
    makeLink: () => makeLink(st),
    copyLink: (input) => copyLink(st, input),
    inviteFriend: (event, input) => inviteFriend(st, event, input),
    closeReplay: () => { st.replay = null; renderTable(st); },
    join: () => joinHere(st),
  };
  st.render = st.acts.render;

  const stop = app.listen((m, meta) => onMessage(st, m, meta));
  const keys = (event) => onKey(st, event);
  document.addEventListener("keydown", keys);
  const tick = setInterval(() => tickClocks(st), 250);
  st.render();
  load(st);
  return {
    // Drawn again in another language: the canned messages' box too (it keeps its element).
    el, render: () => { st.social?.draw(); st.render(); },
    destroy() {
      stop();
      st.social?.destroy();
      clearTimeout(st.poll);
      clearTimeout(st.lateTimer);
      clearInterval(tick);
      document.removeEventListener("keydown", keys);
      st.board?.destroy();
      st.watchBoard?.destroy();
      if (st.matchId) {
        app.socket.forget(`game:${st.matchId}`);
        app.socket.forget(`watch:${st.matchId}`);
      }
    },
    // Used by tests and by the board: the current state, read-only.
    get state() { return { game: st.game, opponent: st.opponent, watch: st.watch, result: st.result }; },
  };
}

// ---- loading the table and the match
async function load(st) {
  clearTimeout(st.poll);
  st.poll = null;
  // Loads overlap (the table's news, my rematch request's answer, the poll): only the
  // newest answer counts, compared with the table as it stands when it comes, not as
  // it stood when it was asked for. Two loads both saw "bob got up" against the old
  // seats; the second, after the first had said "declined the rematch" and cleared
  // the request, said it again as "bob left the table" (seen in CI).
  const asked = ++st.loads;
  let fresh;
  try {
    fresh = await api.table(st.tableId);
  } catch (problem) {
    if (asked !== st.loads) return;
    st.notice = problemText(problem);
    st.gone = problem?.status === 404;
    return st.render();
  }
  if (asked !== st.loads) return; // a newer load is on its way: its answer will do
  const before = JSON.stringify(st.table);
  const was = (st.table?.seats || []).map((s) => s.player_id);
  st.table = { ...fresh, invite_code: st.table?.invite_code };
  const seats = st.table.seats || [];
  for (const seat of seats) if (seat.player_id && seat.name) st.seen.set(seat.player_id, seat.name);
  // The other player got up: said (after a rematch asked for, as a "no"), instead of a
  // New game that the server refuses without a word on screen.
  const left = was.find((id) => id !== st.me.id && !seats.some((s) => s.player_id === id));
  if (left) {
    st.news = t(st.wantNew || st.asking ? "rematchDeclined" : "opponentLeft", { name: st.seen.get(left) || t("opponent") });
    st.asking = false;
  }
  // The link was used by whoever sat down: once the table waits again it needs a new one
  // (the old one only says "already answered"), and nothing of the old copy is said.
  if (left || (was.length < 2 && seats.length >= 2)) {
    st.table.invite_code = undefined;
    st.copied = "";
  }
  if (st.wantNew && seats.length < 2) st.wantNew = false; // declined: the table waits
  const current = st.table.match_id;
  const arrived = current && current !== st.matchId;
  if (arrived) await arrive(st, current);
  else if (!current || st.wantNew) st.poll = setTimeout(() => load(st), POLL_MS);
  // Not seated here: what I am shown (a seat free, a match on) follows the table.
  if (outsider(st) && !st.result && !st.poll) st.poll = setTimeout(() => load(st), POLL_MS);
  if (arrived || JSON.stringify(st.table) !== before) st.render();
}

// A match is there: show its result if over, open it if my clock already runs, else
// wait for the player to start (the clock starts when the game is opened).
async function arrive(st, id) {
  const { app } = st;
  if (st.matchId) app.socket.forget(`game:${st.matchId}`);
  st.matchId = id;
  st.session.clear();
  st.watch = st.result = st.replay = st.opponent = null;
  st.board = st.watchBoard = null;
  st.wantNew = st.asking = false;
  st.news = ""; // a new match: the news of the last one is old
  const info = await api.match(id).catch(() => null);
  if (matchOver(info)) {
    st.result = resultFromRest(info);
    return;
  }
  const mine = info?.games.find((g) => g.player_id === st.me.id);
  st.otherStarted = otherStarted(st, info);
  st.ready = true;
  if (mine?.started_at || app.playNow === st.tableId) return (app.playNow = null, openGame(st)); // a quick duel: at once
  st.startBy = info?.start_deadline ? Date.parse(info.start_deadline) : null;
  st.late = mine?.status === "did_not_start";
  clearTimeout(st.lateTimer);
  // The server ends the game at that moment (and says so only once the match is over):
  // the ready screen turns by itself, a second later.
  if (st.startBy && !st.late) {
    st.lateTimer = setTimeout(() => { st.late = true; if (st.ready) recheck(st); }, Math.max(0, st.startBy - Date.now()) + 1000);
  }
}

// My start deadline has passed: the match may be over with it (neither of us started:
// its result), or the other player's game goes on (theirs to watch, if started).
async function recheck(st) {
  const id = st.matchId;
  const info = await api.match(id).catch(() => null);
  if (id !== st.matchId || !st.ready) return;
  if (matchOver(info)) {
    st.ready = false;
    st.result = resultFromRest(info);
  } else if (info) {
    st.otherStarted = otherStarted(st, info);
  }
  st.render();
}

// The match's REST view (GET /matches/{id}, or null): settled with both games over.
const matchOver = (info) => Boolean(info) && info.status !== "playing" && info.games.every((g) => OVER.has(g.status));
const otherStarted = (st, info) => Boolean(info?.games.find((g) => g.player_id !== st.me.id)?.started_at);

function openGame(st) {
  st.ready = false;
  st.app.socket.send({ type: "open_game", match_id: st.matchId }, `game:${st.matchId}`);
}

// ---- socket messages
function onMessage(st, m, meta) {
  if (m.type === "lobby" && m.table?.id === st.tableId) return load(st);
  if (m.type === "invite") return inviteNews(st, m.invite);
  if (m.match_id !== st.matchId) return;
  if (m.type === "ack" && !meta?.requested) return otherTab(st, m);
  if (m.type === "snapshot") return snapshot(st, m);
  if (m.type === "progress") return progress(st, m.progress);
  if (m.type === "watch") return watched(st, m);
  if (m.type === "game_over") return gameOver(st, m);
  if (m.type === "match_result") return matchResult(st, m);
  if (m.type === "replay") return showReplay(st, m);
  if (m.type === "hint") return showHint(st, m);
}

function snapshot(st, m) {
  if (m.role === "spectator") {
    st.watch = { playerId: m.player_id, view: m.view, score: m.score, status: m.status, left: m.time_left_ms, at: Date.now() };
    st.watchBoard = null;
    return st.render();
  }
  st.session.start(m, { rules: resolveRules(m.rules), limit: m.time_limit_ms });
  if (m.opponent) st.opponent = { ...m.opponent, at: st.madeAt(m.opponent.at_ms) };
  if (!st.social) {
    import("./social.js").then((s) => {
      st.social ??= s.tableSocial(st.app, () => ({ matchId: st.matchId, game: st.game, opponent: st.opponent, nameOf: st.nameOf, me: st.me }));
      st.el.querySelector(".statushost")?.before(st.social.el);
    });
  }
  if (st.board) st.board.update(m.view, { animate: false });
  if (OVER.has(m.status)) spectate(st);
  st.render();
}

function progress(st, p) {
  if (p.player_id === st.me.id) return;
  st.opponent = { ...p, at: st.madeAt(p.at_ms) };
  renderScores(st);
}

// When a frame was made, on this page's clock, from `at_ms` (the server's): the least
// (arrival - at_ms) seen stands for the clocks' offset and the quickest delivery, and a
// frame that took longer (held up by a stalled network, then come in a burst) is dated
// back by the difference, so the opponent's clock reads what it read when it was sent.
export function madeAtClock(now = Date.now) {
  let least = Infinity;
  return (atMs) => {
    const arrived = now();
    if (typeof atMs !== "number") return arrived;
    least = Math.min(least, arrived - atMs);
    return atMs + least; // `arrived` less the delay beyond the quickest
  };
}

function watched(st, m) {
  if (!st.watch) return;
  Object.assign(st.watch, { view: m.view, score: m.score, status: m.status });
  st.watchBoard?.update(m.view, { action: actionOf(m.events) });
  sayEvents(st.el, m.events, false);
  renderScores(st);
}

function gameOver(st, m) {
  const { game } = st;
  if (m.player_id === st.me.id) {
    if (game) Object.assign(game, { status: m.reason, score: m.score });
    // The clock stops where the game ended: the limit less the time it took.
    if (game?.limit && typeof m.elapsed_ms === "number") game.left = Math.max(0, game.limit - m.elapsed_ms);
    spectate(st);
  } else {
    st.opponent = { ...(st.opponent || { player_id: m.player_id }), status: m.reason, score: m.score, elapsed_ms: m.elapsed_ms };
    if (st.watch) st.watch.status = m.reason;
  }
  st.render();
}

function matchResult(st, m) {
  st.result = m;
  st.app.socket.forget(`watch:${st.matchId}`);
  st.render();
  announce(m.winner_id === null ? t("draw") : t("winner", { name: st.nameOf(m.winner_id) }));
}

// The replay's module loads when a replay is first asked for (not on the first page).
async function showReplay(st, frame) {
  replayView ??= (await import("./replay.js")).replayView;
  st.replay = frame;
  st.replayView = replayView;
  st.render();
}

function spectate(st) {
  if (st.result || st.watch || !st.matchId) return;
  const other = st.opponent?.status;
  if ((other && OVER.has(other)) || st.alone()) return; // both over: the result is on its way
  // Asked already, its snapshot on the way: my finish's ack and my game_over both ask.
  // (The socket asks again by itself on a fresh stream.)
  const key = `watch:${st.matchId}`;
  if (st.app.socket.follows?.(key)) return;
  st.app.socket.send({ type: "spectate", match_id: st.matchId }, key);
}

// ---- my actions, through the game session (seq, retry on an outdated seq, resync)
async function act(st, action) {
  const { matchId } = st;
  // Not connected: refused at once and said, rather than held until the connection is
  // back (the taps made meanwhile queued behind it and were dropped without a word).
  if (!st.app.socket.connected) return { ok: false, code: "offline" };
  const done = await st.session.play(action, (seq) => st.app.socket.request({ type: "action", match_id: matchId, seq, action }));
  if (done.ok && done.applied === "applied") tookAck(st, done.answer, action);
  return done.ok === false ? { ok: false, code: done.code, reason: done.reason } : { ok: done.ok };
}

// My own step made in another tab or on another device: the same game, so it is
// applied here as if made here (a step already applied is not applied twice).
function otherTab(st, answer) {
  const wasOver = st.session.over;
  if (st.session.news(answer) !== "applied") return;
  tookAck(st, answer, actionOf(answer.events));
  if (!wasOver && st.session.over) st.render();
}

// An ack taken by the session: drawn and said.
function tookAck(st, answer, action) {
  st.board?.update(answer.view, { action });
  sayEvents(st.el, answer.events, true);
  renderScores(st);
  renderButtons(st);
  if (OVER.has(answer.status)) spectate(st);
}

async function finish(st) {
  if (st.session.over) return;
  const sure = await confirmBox(t("confirmFinish"), { yes: t("finish"), no: t("keepPlaying"), id: "confirm-finish" });
  if (!sure || st.session.over) return;
  const { matchId } = st;
  const done = await st.session.play(null, (seq) => st.app.socket.request({ type: "finish", match_id: matchId, seq }));
  if (done.ok) {
    spectate(st);
    st.render();
  }
}

// A hint only points: it lights up what to play for a moment and says why, in the status
// line for everyone and in the live region for screen readers; it never plays.
// Asked in the board's turn (after a move of mine on its way), for the position it
// leaves; an answer that comes once a newer step of mine is made or on its way is for
// a board no longer there, and is not shown.
function hint(st) {
  if (st.session.over || !st.board) return;
  st.board.later(() => {
    st.hintFor = st.game?.seq;
    st.app.socket.send({ type: "hint", match_id: st.matchId });
    return null;
  });
}

function showHint(st, answer) {
  if (!st.game || st.session.pending || st.game.seq !== st.hintFor) return;
  showHintOn(st.el, st.board, st.game.view, answer);
}

// ---- keyboard shortcuts (the board handles arrows and Enter itself)
function onKey(st, event) {
  const { board } = st;
  if (!board || st.session.over) return; // nothing of mine to play
  if (event.target.closest("input, textarea, select, dialog")) return;
  if (event.key === " " && event.target.closest("button, a")) return; // Space presses it
  if (event.key === " ") board.deal();
  else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") board.undo();
  else if (event.ctrlKey || event.metaKey || event.altKey) return;
  else if (event.key.toLowerCase() === "f") board.flip();
  else if (event.key.toLowerCase() === "i") hint(st);
  else if (event.key === "Enter" && enterPlaysHint(event, board)) return;
  else return;
  event.preventDefault();
}

// ---- around the game: invitations, a new game, leaving
// Once at a time: a redraw while the link is on its way would ask for a second invite,
// and the link shown would change under a player who had just copied the first.
async function makeLink(st) {
  if (st.linking) return;
  st.linking = true;
  try {
    const invite = await api.inviteLink(st.tableId);
    st.table.invite_code = invite.code;
    renderWaiting(st);
  } catch (problem) {
    st.notice = problemText(problem);
  } finally {
    st.linking = false;
  }
}

async function copyLink(st, input) {
  input.select();
  st.copied = (await copyText(input.value)) ? t("copied") : "";
  if (st.copied) announce(st.copied);
  renderWaiting(st);
}

async function inviteFriend(st, event, input) {
  event.preventDefault();
  try {
    await api.inviteFriend(st.tableId, input.value.trim());
    st.copied = t("inviteSentTo", { name: input.value.trim() });
    st.notice = ""; // an earlier refusal no longer stands beside it
    announce(st.copied);
  } catch (problem) {
    st.notice = problemText(problem);
    st.copied = ""; // nor an earlier "sent" beside a refusal
  }
  renderWaiting(st);
}

// My invitation to this table declined: said where "Invitation sent to bob" stood.
function inviteNews(st, invite) {
  if (invite?.table_id !== st.tableId || invite.status !== "declined" || invite.inviter_id !== st.me.id) return;
  st.copied = t("inviteDeclined", { name: invite.invitee_name || t("opponent") });
  announce(st.copied);
  st.render();
}

// A free seat at a table I am shown from outside: sat down as from the lobby.
async function joinHere(st) {
  try {
    await api.join(st.tableId);
  } catch (problem) {
    st.notice = problemText(problem);
    return st.render();
  }
  st.notice = "";
  load(st);
}

async function newGame(st) {
  st.asking = true;
  try {
    st.table = await api.newGame(st.tableId);
  } catch (problem) {
    st.asking = false;
    st.notice = problemText(problem);
    return st.render();
  }
  st.wantNew = true;
  st.result = null;
  st.session.clear();
  st.render();
  load(st);
}

function inviteNew(st) {
  st.result = st.watch = null;
  st.session.clear();
  st.render();
}

// Refused (my game of a match in progress): said where I am, never a silent trip to the
// lobby that leaves me seated and my clock running.
async function leave(st) {
  try {
    await api.leave(st.tableId);
  } catch (problem) {
    if (problem?.status !== 404) {
      st.notice = problemText(problem);
      return st.render();
    }
  }
  st.app.go("#/");
}

// A player's name: the result's own (when the server names its players), else from the
// seats — remembered, so a player who has left the table keeps their name on the result.
function nameOf(st, playerId) {
  if (playerId === st.me.id) return st.me.name;
  const other = (id) => (playerId === undefined ? id !== st.me.id : id === playerId);
  const row = st.result?.results?.find((r) => other(r.player_id) && r.name);
  if (row) return row.name;
  const seat = (st.table?.seats || []).find((s) => other(s.player_id));
  if (seat?.name) return seat.name;
  return [...st.seen].find(([id]) => other(id))?.[1] ?? "";
}

// A finished match as the REST API gives it, in the shape of the protocol's match_result.
function resultFromRest(info) {
  return {
    match_id: info.match_id,
    winner_id: info.winner_id,
    results: info.games.map((g) => ({
      player_id: g.player_id, name: g.name, score: g.score, elapsed_ms: g.time_used_ms, reason: g.status,
      rating_before: g.rating_before, rating_after: g.rating_after,
    })),
    deal: { play: info.play },
  };
}
