// A duel table: waiting for an opponent (invite link), my game, then watching the
// opponent live once mine is over, then the result.
import { h, clear, announce, formatClock, clockTime, copyText, confirmBox } from "./dom.js";
import { t, cardName, suitName, tip, problemText } from "./i18n.js";
import { api } from "./api.js";
import { createBoard } from "./board.js";
import { icon } from "./face.js";
import { resolveRules } from "./rules.js";
import { tableSummary } from "./lobby.js";

let replayView = null;
const OVER = new Set(["won", "finished", "timeout", "timed_out", "did_not_start"]);
const POLL_MS = 1500;

export function tableScreen(app, { tableId }) {
  const el = h("section.screen.table");
  const me = app.me;
  let table = null;
  let matchId = null;
  let game = null; // my game: {rules, view, score, seq, status, left, at}
  let opponent = null; // Progress of the other player
  let watch = null; // the opponent's game once mine is over: {view, score, status, left, at}
  let result = null;
  let replay = null;
  let board = null;
  let watchBoard = null;
  let poll = null;
  let tick = null;
  let notice = ""; // a refusal or a failure, said as an error
  let news = ""; // what happened at the table ("bob left the table."), said as news
  // An invitation sent from the lobby's friend list on the way here: said on arrival.
  let copied = app.sent?.tableId === tableId ? t("inviteSentTo", { name: app.sent.name }) : "";
  app.sent = null;
  let ready = false; // a match waits for me to open my game
  let startBy = null; // ...until then (ms): after it, my game is lost as "did not start"
  let late = false; // that moment has passed: opening the game now only watches the other
  let lateTimer = null;
  let wantNew = false; // I asked for a new game; polling until the next match starts
  let asking = false; // my rematch request is on its way: a "no" can come back before its answer
  let gone = false; // the table is not there (any more) for me: said, with the way out
  let resultView = null; // result.js, loaded with the first result (not a first-page need)
  let social = null; // social.js: the score to beat, canned messages (loaded with my game)
  const seen = new Map(); // player id → name, of everyone seen seated here

  // ---- loading the table and the match
  async function load() {
    clearTimeout(poll);
    const before = JSON.stringify(table);
    const was = (table?.seats || []).map((s) => s.player_id);
    try {
      table = { ...(await api.table(tableId)), invite_code: table?.invite_code };
    } catch (problem) {
      notice = problemText(problem);
      gone = problem?.status === 404;
      return render();
    }
    for (const seat of table.seats || []) if (seat.player_id && seat.name) seen.set(seat.player_id, seat.name);
    // The other player got up: said (after a rematch asked for, as a "no"), instead of a
    // New game that the server refuses without a word on screen.
    const left = was.find((id) => id !== me.id && !(table.seats || []).some((s) => s.player_id === id));
    if (left) {
      news = t(wantNew || asking ? "rematchDeclined" : "opponentLeft", { name: seen.get(left) || t("opponent") });
      asking = false;
    }
    // The link was used by whoever sat down: once the table waits again it needs a new one
    // (the old one only says "already answered"), and nothing of the old copy is said.
    if (left || (was.length < 2 && (table.seats || []).length >= 2)) {
      table.invite_code = undefined;
      copied = "";
    }
    if (wantNew && (table.seats || []).length < 2) wantNew = false; // declined: the table waits
    const current = table.match_id;
    const arrived = current && current !== matchId;
    if (arrived) await arrive(current);
    else if (!current || wantNew) poll = setTimeout(load, POLL_MS);
    if (arrived || JSON.stringify(table) !== before) render();
  }

  // A match is there: show its result if over, open it if my clock already runs, else
  // wait for the player to start (the clock starts when the game is opened).
  async function arrive(id) {
    if (matchId) app.socket.forget(`game:${matchId}`);
    matchId = id;
    game = watch = result = replay = opponent = null;
    board = watchBoard = null;
    wantNew = asking = false;
    news = ""; // a new match: the news of the last one is old
    const info = await api.match(id).catch(() => null);
    if (info && info.status !== "playing" && info.games.every((g) => OVER.has(g.status))) {
      result = resultFromRest(info);
      return;
    }
    const mine = info?.games.find((g) => g.player_id === me.id);
    ready = true;
    if (mine?.started_at || app.playNow === tableId) return (app.playNow = null, openGame()); // a quick duel: at once
    startBy = info?.start_deadline ? Date.parse(info.start_deadline) : null;
    late = mine?.status === "did_not_start";
    clearTimeout(lateTimer);
    // The server ends the game at that moment (and says so only once the match is over):
    // the ready screen turns by itself, a second later.
    if (startBy && !late) {
      lateTimer = setTimeout(() => { late = true; if (ready) render(); }, Math.max(0, startBy - Date.now()) + 1000);
    }
  }

  function openGame() {
    ready = false;
    app.socket.send({ type: "open_game", match_id: matchId }, `game:${matchId}`);
  }

  // ---- socket messages
  function onMessage(m, meta) {
    if (m.type === "lobby" && m.table?.id === tableId) return load();
    if (m.match_id !== matchId) return;
    if (m.type === "ack" && !meta?.requested) return otherTab(m);
    if (m.type === "snapshot") return snapshot(m);
    if (m.type === "progress") return progress(m.progress);
    if (m.type === "watch") return watched(m);
    if (m.type === "game_over") return gameOver(m);
    if (m.type === "match_result") return matchResult(m);
    if (m.type === "replay") return showReplay(m);
    if (m.type === "hint") return showHint(m);
  }

  function snapshot(m) {
    if (m.role === "spectator") {
      watch = { playerId: m.player_id, view: m.view, score: m.score, status: m.status, left: m.time_left_ms, at: Date.now() };
      watchBoard = null;
      return render();
    }
    game = {
      rules: resolveRules(m.rules), view: m.view, score: m.score, seq: m.seq,
      status: m.status, left: m.time_left_ms, at: Date.now(), limit: m.time_limit_ms,
    };
    if (m.opponent) opponent = { ...m.opponent, at: Date.now() };
    if (!social) import("./social.js").then((s) => { social ??= s.tableSocial(app, () => ({ matchId, game, opponent, nameOf, me })); el.querySelector(".statushost")?.before(social.el); });
    if (board) board.update(m.view, { animate: false });
    if (OVER.has(m.status)) spectate();
    render();
  }

  function progress(p) {
    if (p.player_id === me.id) return;
    opponent = { ...p, at: Date.now() };
    renderScores();
  }

  function watched(m) {
    if (!watch) return;
    Object.assign(watch, { view: m.view, score: m.score, status: m.status });
    watchBoard?.update(m.view, { action: actionOf(m.events) });
    announceEvents(m.events, false);
    renderScores();
  }

  function gameOver(m) {
    if (m.player_id === me.id) {
      if (game) Object.assign(game, { status: m.reason, score: m.score });
      // The clock stops where the game ended: the limit less the time it took.
      if (game?.limit && typeof m.elapsed_ms === "number") game.left = Math.max(0, game.limit - m.elapsed_ms);
      spectate();
    } else {
      opponent = { ...(opponent || { player_id: m.player_id }), status: m.reason, score: m.score, elapsed_ms: m.elapsed_ms };
      if (watch) watch.status = m.reason;
    }
    render();
  }

  function matchResult(m) {
    result = m;
    app.socket.forget(`watch:${matchId}`);
    render();
    announce(m.winner_id === null ? t("draw") : t("winner", { name: nameOf(m.winner_id) }));
  }

  // The replay's module loads when a replay is first asked for (not on the first page).
  async function showReplay(frame) {
    replayView ??= (await import("./replay.js")).replayView;
    replay = frame;
    render();
  }

  function spectate() {
    if (result || watch || !matchId) return;
    const other = opponent?.status;
    if ((other && OVER.has(other)) || alone()) return; // both over: the result is on its way
    app.socket.send({ type: "spectate", match_id: matchId }, `watch:${matchId}`);
  }

  // ---- my actions
  async function act(action) {
    if (!game || OVER.has(game.status)) return { ok: false, code: "game_over" };
    let answer = await app.socket.request({ type: "action", match_id: matchId, seq: game.seq + 1, action });
    // Another tab of mine took that seq first: the rejection brings the fresh view and the
    // next seq, so the move is tried once more on it rather than lost (still checked there).
    if (answer.type === "reject" && ["stale_seq", "bad_seq"].includes(answer.code) && answer.next_seq) {
      syncFrom(answer);
      answer = await app.socket.request({ type: "action", match_id: matchId, seq: game.seq + 1, action });
    }
    if (answer.type === "ack") {
      applyAck(answer, action);
      return { ok: true };
    }
    if (answer.type === "reject") {
      syncFrom(answer);
      return { ok: false, code: answer.code, reason: answer.message };
    }
    return { ok: null };
  }

  function syncFrom(reject) {
    if (reject.next_seq) game.seq = reject.next_seq - 1;
    if (reject.view) {
      game.view = reject.view;
      queueMicrotask(() => board?.update(reject.view, { animate: false }));
    }
    if (typeof reject.score === "number") game.score = reject.score;
  }

  // My own step made in another tab or on another device: the same game, so it is
  // applied here as if made here (a step already applied is not applied twice).
  function otherTab(answer) {
    if (!game || answer.seq <= game.seq) return;
    const ended = !OVER.has(game.status) && OVER.has(answer.status);
    applyAck(answer, actionOf(answer.events));
    if (ended) render();
  }

  function applyAck(answer, action) {
    if (answer.seq < game.seq) return; // a newer step (from another tab) is already here
    Object.assign(game, {
      seq: answer.seq, view: answer.view, score: answer.score, status: answer.status,
      left: answer.time_left_ms, at: Date.now(),
    });
    board?.update(answer.view, { action });
    announceEvents(answer.events, true);
    renderScores();
    renderButtons();
    if (OVER.has(answer.status)) spectate();
  }

  async function finish() {
    if (!game || OVER.has(game.status)) return;
    const sure = await confirmBox(t("confirmFinish"), { yes: t("finish"), no: t("keepPlaying"), id: "confirm-finish" });
    if (!sure || !game || OVER.has(game.status)) return;
    const answer = await app.socket.request({ type: "finish", match_id: matchId, seq: game.seq + 1 });
    if (answer.type === "ack") {
      Object.assign(game, {
        seq: answer.seq, status: answer.status, score: answer.score, left: answer.time_left_ms, at: Date.now(),
      });
      spectate();
      render();
    }
  }

  // A hint only points: it lights up what to play for a moment and says why, in the status
  // line for everyone and in the live region for screen readers; it never plays.
  function hint() {
    if (game && !OVER.has(game.status)) app.socket.send({ type: "hint", match_id: matchId });
  }

  function showHint(hint) {
    if (game) showHintOn(el, board, game.view, hint);
  }

  function announceEvents(events, mine) {
    sayEvents(el, events, mine);
  }

  // ---- keyboard shortcuts (the board handles arrows and Enter itself)
  function onKey(event) {
    if (!board || !game || OVER.has(game.status)) return; // nothing of mine to play
    if (event.target.closest("input, textarea, select, dialog")) return;
    if (event.key === " " && event.target.closest("button, a")) return; // Space presses it
    if (event.key === " ") board.deal();
    else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") board.undo();
    else if (event.ctrlKey || event.metaKey || event.altKey) return;
    else if (event.key.toLowerCase() === "f") board.flip();
    else if (event.key.toLowerCase() === "i") hint();
    else if (event.key === "Enter" && enterPlaysHint(event, board)) return;
    else return;
    event.preventDefault();
  }

  // ---- drawing
  // While a game is on screen the table fills the viewport: the heads-up display (both
  // players, the stock and completed runs, the game buttons), a status line, the board.
  function render() {
    el.classList.remove("game");
    if (gone) return renderGone();
    if (result) return renderResult();
    if (ready) return renderReady();
    if (wantNew && !game) return renderRematchWait();
    if (!game) return renderWaiting();
    const over = OVER.has(game.status);
    const opponentName = nameOf(opponent?.player_id) || t("opponent");
    const boardHost = h("div.boardhost");
    const trayHost = h("div.trayhost");
    const statusHost = h("div.statushost");
    const watching = over && watch;
    el.classList.add("game");
    clear(el,
      h("h1.sr", {}, `${t("table")} ${tableId}`),
      h("div.players", { id: "scores" }),
      trayHost,
      h("div.controls", { id: "actions" }),
      h("div.statusbar",
        // Eight runs done: said plainly (a phone's panels hide the state words).
        game.status === "won" ? h("p.banner.badge.won", { id: "my-win", role: "status" }, icon("trophy"), t("allRunsDone")) : null,
        watching ? h("h2.watching.badge", { id: "watching" }, icon("eye"),
          `${t("spectating", { name: opponentName })} (${t("readOnly")})`) : null,
        alone() ? h("p.banner.badge", { role: "status", id: "quick-later" }, t("qdLater"))
          : over && !watching ? h("p.banner.badge", { role: "status" }, t("youFinished", { name: opponentName })) : null,
        notice ? h("p.error", { role: "alert" }, notice) : null,
        social?.el, statusHost),
      boardHost);
    board?.destroy();
    watchBoard?.destroy();
    if (watching) {
      watchBoard = createBoard({
        root: boardHost, trayHost, statusHost, rules: game.rules, readOnly: true,
        onAction: async () => ({ ok: false }), title: t("opponentBoard", { name: opponentName }),
      });
      watchBoard.update(watch.view, { animate: false });
    } else {
      board = createBoard({
        root: boardHost, trayHost, statusHost, rules: game.rules, onAction: act, readOnly: over, title: t("board"),
      });
      board.update(game.view, { animate: false });
    }
    renderScores();
    renderButtons();
  }

  // Game buttons: an icon, a label and the key that does the same (drawn by CSS from
  // data-key, so the button's name stays its label); after my game, Finish becomes Leave.
  // data-short: the word a phone's narrow button shows instead of a long label (CSS).
  function renderButtons() {
    const host = el.querySelector("#actions");
    if (!host || !game) return;
    const over = OVER.has(game.status);
    const button = (id, name, text, props) => h("button.game", { type: "button", id, ...props }, icon(name), h("span.label", {}, text));
    clear(host,
      button("deal", "deal", t("deal"), { disabled: over || !game.view.stock, onclick: () => board.deal(), "aria-keyshortcuts": "Space", "data-key": t("keySpaceName") }),
      button("undo", "undo", t("undo"), { disabled: over, "aria-disabled": !over && !game.view.can_undo ? "true" : null, onclick: () => board.undo(), "aria-keyshortcuts": "Control+Z", "data-key": t("keyUndoName"), "data-short": t("undoShort") }),
      button("hint", "hint", t("hint"), { disabled: over, onclick: hint, "aria-keyshortcuts": "I", "data-key": "I" }),
      over ? button("leave", "leave", t("leave"), { class: "quit", onclick: leave })
        : button("finish", "finish", t("finish"), { class: "quit", onclick: finish }));
  }

  function renderScores() {
    const host = el.querySelector("#scores");
    if (!host || !game) return;
    const o = opponent;
    const theirName = nameOf(o?.player_id) || t("opponent");
    if (alone() && t("qdLater") === "qdLater") import("./quick.js").then(render); // its words
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
        h("a.name", { href: o && `#/player/${encodeURIComponent(nameOf(o.player_id) || "")}` }, theirName)),
      clock(o ? leftNow(o, o.time_left_ms) : null, "their-clock"),
      h("div.stats", stat(t("score"), watch ? watch.score : o?.score ?? 0, "their-score"),
        stat(t("runs"), runsOf(watch ? watch.view.removed.length : o?.runs ?? 0))),
      h("span.state", { id: "their-state", class: o?.status === "not_started" || theirStatus === "did_not_start" ? "news" : "" },
        alone() ? t("qdLaterShort") : o?.status === "not_started" && o.start_deadline
        ? t("notStartedUntil", { name: theirName, time: clockTime(o.start_deadline) })
        : stateText(theirStatus, o?.status === "not_started")));
    clear(host, mine, h("span.vs", { "aria-hidden": "true" }, "vs"), theirs);
  }

  function stateText(status, notStarted = false) {
    if (notStarted) return t("notStarted");
    return status && OVER.has(status) ? t(statusKey(status)) : t("playing");
  }

  // A daily-duel table says so: its one match deals today's daily deal.
  const heading = () => (table?.daily_date ? t("dailyDuel") : t("table"));

  // Until when I may start is said (the no-show rule): a player who steps away from this
  // screen would otherwise lose without a word. Once it has passed, opening my game
  // shows it over and watches the other player's.
  function renderReady() {
    const other = nameOf(undefined) || t("opponent");
    const until = late ? t("startedTooLate") : startBy ? t("startBefore", { time: clockTime(startBy) }) : null;
    clear(el, h("div.page.narrow",
      h("h1", {}, heading()),
      table ? h("p.lead", {}, tableSummary(table)) : null,
      h("section.panel.center",
        h("p.banner", { role: "status" }, t("readyText", { name: other })),
        until ? h("p", { id: "start-by", class: late ? "error" : "note" }, until) : null,
        h("div.row.center",
          h("button.primary.big", { type: "button", id: "start", onclick: openGame },
            late ? t("watchName", { name: other }) : t("start")),
          // Not "Leave": the seat cannot be given up while this game is still to be
          // played (the server refuses); the lobby's My tables leads back here.
          h("button", { type: "button", id: "to-lobby", onclick: () => app.go("#/") }, icon("leave"), t("backToLobby"))))));
  }

  function renderGone() {
    clear(el, h("div.page.narrow",
      h("h1", {}, t("table")),
      h("p.banner", { role: "alert", id: "table-gone" }, notice),
      h("div.row", h("a.button.primary", { href: "#/", id: "to-lobby" }, t("backToLobby")))));
  }

  function renderWaiting() {
    const code = table?.invite_code;
    const link = h("input", { id: "invite-link", readonly: true, value: code ? app.inviteUrl(code) : "", "aria-label": t("inviteLink") });
    // Same field across redraws: typing survives table updates. Focus is taken before the
    // new tree takes the field (clear() can no longer see it then).
    const friend = el.querySelector("#friend-name") || h("input", { id: "friend-name", name: "friend", autocomplete: "off" });
    const typing = document.activeElement === friend;
    clear(el, h("div.page.narrow",
      h("h1", {}, heading()),
      table ? h("p.lead", {}, tableSummary(table)) : null,
      notice ? h("p.error", { role: "alert" }, notice) : null,
      newsLine(),
      h("p.banner.waiting", { role: "status" }, h("span.spinner", { "aria-hidden": "true" }), t("waiting")),
      h("section.panel", { "aria-labelledby": "inv-h" },
        h("h2", { id: "inv-h" }, t("inviteFriend")),
        h("div.row.field", link,
          h("button.primary", { type: "button", id: "copy-link", onclick: () => copyLink(link) }, icon("copy"), t("copyLink")),
          h("span.note", { role: "status" }, copied)),
        h("form.row.field", { onsubmit: (e) => inviteFriend(e, friend) },
          h("label", { for: "friend-name" }, t("friendName")), friend,
          h("button", { type: "submit" }, icon("invite"), t("send")))),
      h("div.row", h("button", { type: "button", onclick: leave }, icon("leave"), t("leave")))));
    if (typing) friend.focus();
    if (table && !table.quick && !code && (table.seats || []).length < 2 && !wantNew) makeLink();
  }

  // I asked for a rematch: the other player has the result page with Accept / Decline.
  function renderRematchWait() {
    clear(el, h("div.page.narrow",
      h("h1", {}, heading()),
      table ? h("p.lead", {}, tableSummary(table)) : null,
      notice ? h("p.error", { role: "alert" }, notice) : null,
      h("p.banner.waiting", { role: "status", id: "rematch-wait" }, h("span.spinner", { "aria-hidden": "true" }),
        t("rematchWaiting", { name: nameOf(undefined) || t("opponent") })),
      h("div.row", h("button", { type: "button", onclick: leave }, icon("leave"), t("leave")))));
  }

  // The other player asked for a rematch (live, through the table's news): say so on the
  // result, with the answers at hand.
  function rematchNotice() {
    const other = (table?.seats || []).find((s) => s.player_id !== me.id);
    if (!other?.wants_new_game || wantNew) return null;
    return h("p.banner.rematch", { role: "status", id: "rematch-asked" }, t("rematchAsked", { name: other.name }),
      h("span.answers", {}, // the two answers wrap together on a phone, never apart
        h("button.primary", { type: "button", id: "rematch-accept", onclick: newGame }, t("accept")),
        h("button", { type: "button", id: "rematch-decline", onclick: leave }, t("decline"))));
  }

  async function makeLink() {
    try {
      const invite = await api.inviteLink(tableId);
      table.invite_code = invite.code;
      renderWaiting();
    } catch (problem) {
      notice = problemText(problem);
    }
  }

  async function copyLink(input) {
    input.select();
    copied = (await copyText(input.value)) ? t("copied") : "";
    if (copied) announce(copied);
    renderWaiting();
  }

  async function inviteFriend(event, input) {
    event.preventDefault();
    try {
      await api.inviteFriend(tableId, input.value.trim());
      copied = t("inviteSentTo", { name: input.value.trim() });
      announce(copied);
      renderWaiting();
    } catch (problem) {
      notice = problemText(problem);
      renderWaiting();
    }
  }

  function renderResult() {
    if (replay) {
      return clear(el, replayView({ ...replay, player: nameOf(replay.player_id), onClose: () => { replay = null; render(); } }));
    }
    if (!resultView) {
      import("./result.js").then((m) => { resultView = m.resultView; if (result) render(); }).catch(console.error);
      return;
    }
    const alone = (table?.seats || []).length < 2;
    clear(el, rematchNotice(),
      newsLine(), social?.el,
      resultView({
      result, me, nameOf, suits: table?.suits ?? game?.rules.suits, rated: table?.rated,
      // Alone at the table: a new game needs a new opponent, invited from the waiting screen.
      onNewGame: alone ? inviteNew : newGame, onLeave: leave,
      onReplay: (playerId) => app.socket.send({ type: "get_replay", match_id: matchId, player_id: playerId }),
    }));
  }

  async function newGame() {
    asking = true;
    try {
      table = await api.newGame(tableId);
    } catch (problem) {
      asking = false;
      notice = problemText(problem);
      return render();
    }
    wantNew = true;
    result = null;
    game = null;
    render();
    load();
  }

  function inviteNew() {
    result = game = watch = null;
    render();
  }

  const newsLine = () => (news ? h("p.banner.news", { role: "status", id: "table-news" }, news) : null);

  // Refused (my game of a match in progress): said where I am, never a silent trip to the
  // lobby that leaves me seated and my clock running.
  async function leave() {
    try {
      await api.leave(tableId);
    } catch (problem) {
      if (problem?.status !== 404) {
        notice = problemText(problem);
        return render();
      }
    }
    app.go("#/");
  }

  const alone = () => !opponent && table?.quick; // a quick duel nobody is paired into yet

  // A player's name: the result's own (when the server names its players), else from the
  // seats — remembered, so a player who has left the table keeps their name on the result.
  function nameOf(playerId) {
    if (playerId === me.id) return me.name;
    const other = (id) => (playerId === undefined ? id !== me.id : id === playerId);
    const row = result?.results?.find((r) => other(r.player_id) && r.name);
    if (row) return row.name;
    const seat = (table?.seats || []).find((s) => other(s.player_id));
    if (seat?.name) return seat.name;
    return [...seen].find(([id]) => other(id))?.[1] ?? "";
  }

  const stop = app.listen(onMessage);
  document.addEventListener("keydown", onKey);
  tick = setInterval(() => {
    const o = watch && opponent ? { ...opponent, status: watch.status } : opponent;
    tickClock("#my-clock", leftNow(game));
    tickClock("#their-clock", o ? leftNow(o, o.time_left_ms) : null);
  }, 250);
  function tickClock(selector, left) {
    const node = el.querySelector(selector);
    if (!node) return;
    node.textContent = formatClock(left);
    node.parentElement.classList.toggle("low", left !== null && left < LOW_MS);
  }

  render();
  load();
  return {
    el, render,
    destroy() {
      stop();
      social?.destroy();
      clearTimeout(poll);
      clearTimeout(lateTimer);
      clearInterval(tick);
      document.removeEventListener("keydown", onKey);
      board?.destroy();
      watchBoard?.destroy();
      if (matchId) {
        app.socket.forget(`game:${matchId}`);
        app.socket.forget(`watch:${matchId}`);
      }
    },
    // Used by tests and by the board: the current state, read-only.
    get state() { return { game, opponent, watch, result }; },
  };
}

function stat(label, value, id) {
  return h("span.stat", {}, h("span.label", {}, label), " ", h("span.value", { id }, String(value)));
}

const runsOf = (n) => `${n}/8`;
const LOW_MS = 60_000; // the clock turns red under one minute

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

function currentMatch(table) {
  return table.match_id ?? null;
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

// Enter with the focus outside the board (the page, after pressing I) plays the hint just
// given; on a button or link Enter keeps pressing it; inside the board, board.js handles it.
export function enterPlaysHint(event, board) {
  if (event.defaultPrevented || event.target.closest("button, a, [role=button]")) return false;
  if (!board.playSuggested()) return false;
  event.preventDefault();
  return true;
}

// A hint points: it lights up what to play for a moment and says why, in the status
// line for everyone and in the live region for screen readers. It plays nothing by
// itself; Enter right after it plays it (board.suggest). Shared with the solo table
// (soloplay.js).
export function showHintOn(el, board, view, { action: a, reason }) {
  if (a?.op === "undo") {
    const undo = el.querySelector("#undo");
    undo?.classList.add("hinted");
    setTimeout(() => undo?.classList.remove("hinted"), 2500);
  } else if (a) board?.light(a); // the board lights it again if it redraws meanwhile
  const what = !a ? t("hintNone") : a.op === "move"
    ? t("hintMove", { card: cardName(view.columns[a.from].up.at(-a.count), { article: true }), n: a.to + 1 })
    : a.op === "flip" ? t("hintFlip", { n: a.col + 1 }) : t(a.op === "deal" ? "hintDeal" : "hintUndo");
  const text = t("hintSays", { what: `${what}${reason === "deal" ? "" : ` — ${tip(reason)}`}` });
  board?.say(text, { kind: "hint" });
  announce(text);
  board?.suggest(a); // Enter next plays it
}

// Moves, deals, flips and completed runs said to screen readers; a completed run pops.
export function sayEvents(el, events = [], mine = true) {
  const said = [];
  for (const e of events) {
    if (e.kind === "moved") said.push(t("moved", { card: cardName(e.cards[0]), n: e.to + 1 }));
    else if (e.kind === "dealt") said.push(t("dealt"));
    else if (e.kind === "flipped" && mine) said.push(t("flipped", { card: cardName(e.card), n: e.col + 1 }));
    else if (e.kind === "undone") said.push(t("undone"));
    else if (e.kind === "run_completed") {
      said.push(t("runDone", { suit: suitName(e.suit) }));
      requestAnimationFrame(() => el.querySelector(".runs .run:last-child")?.classList.add("fresh"));
    }
  }
  if (said.length) announce(said.join(" "));
}

export function statusKey(status) {
  return { timeout: "timed_out", finished: "finished_early" }[status] || status;
}

export function actionOf(events = []) {
  const moved = events.find((e) => e.kind === "moved");
  if (moved) return { op: "move", from: moved.from, to: moved.to, count: moved.cards.length };
  if (events.some((e) => e.kind === "dealt")) return { op: "deal" };
  return null;
}
