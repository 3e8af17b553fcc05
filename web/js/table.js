// A duel table: waiting for an opponent (invite link), my game, then watching the
// opponent live once mine is over, then the result.
import { h, clear, announce, formatClock, copyText } from "./dom.js";
import { t, cardName, suitName, tip } from "./i18n.js";
import { api } from "./api.js";
import { createBoard } from "./board.js";
import { resolveRules } from "./rules.js";
import { tableSummary } from "./lobby.js";
import { resultView } from "./result.js";
import { replayView } from "./replay.js";

const OVER = new Set(["won", "finished", "timeout", "timed_out", "stuck"]);
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
  let notice = "";
  let copied = "";
  let ready = false; // a match waits for me to open my game
  let wantNew = false; // I asked for a new game; polling until the next match starts

  // ---- loading the table and the match
  async function load() {
    clearTimeout(poll);
    const before = JSON.stringify(table);
    try {
      table = { ...(await api.table(tableId)), invite_code: table?.invite_code };
    } catch (problem) {
      notice = t("error", { detail: problem.message });
      return render();
    }
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
    wantNew = false;
    const info = await api.match(id).catch(() => null);
    if (info && info.status !== "playing" && info.games.every((g) => g.status !== "playing")) {
      result = resultFromRest(info);
      return;
    }
    const mine = info?.games.find((g) => g.player_id === me.id);
    ready = true;
    if (mine?.started_at) openGame();
  }

  function openGame() {
    ready = false;
    app.socket.send({ type: "open_game", match_id: matchId }, `game:${matchId}`);
  }

  // ---- socket messages
  function onMessage(m) {
    if (m.type === "lobby" && m.table?.id === tableId) return load();
    if (m.match_id !== matchId) return;
    if (m.type === "snapshot") return snapshot(m);
    if (m.type === "progress") return progress(m.progress);
    if (m.type === "watch") return watched(m);
    if (m.type === "game_over") return gameOver(m);
    if (m.type === "match_result") return matchResult(m);
    if (m.type === "replay") return showReplay(m.record);
    if (m.type === "hint") return showHint(m);
  }

  function snapshot(m) {
    if (m.role === "spectator") {
      watch = { playerId: m.player_id, view: m.view, score: m.score, status: m.status, left: m.time_left_ms, at: Date.now() };
      watchBoard = null;
      return render();
    }
    app.socket.settleAll({ type: "resync" });
    game = {
      rules: resolveRules(m.rules), view: m.view, score: m.score, seq: m.seq,
      status: m.status, left: m.time_left_ms, at: Date.now(), limit: m.time_limit_ms,
    };
    if (m.opponent) opponent = { ...m.opponent, at: Date.now() };
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
      spectate();
    } else {
      opponent = { ...(opponent || { player_id: m.player_id }), status: m.reason, score: m.score };
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

  function showReplay(record) {
    replay = record;
    render();
  }

  function spectate() {
    if (result || watch || !matchId) return;
    const other = opponent?.status;
    if (other && OVER.has(other)) return; // both over: the result is on its way
    app.socket.send({ type: "spectate", match_id: matchId }, `watch:${matchId}`);
  }

  // ---- my actions
  async function act(action) {
    if (!game || OVER.has(game.status)) return { ok: false, code: "game_over" };
    const frame = { type: "action", match_id: matchId, seq: game.seq + 1, action };
    const answer = await app.socket.request(frame);
    if (answer.type === "ack") {
      applyAck(answer, action);
      return { ok: true };
    }
    if (answer.type === "reject") {
      if (answer.next_seq) game.seq = answer.next_seq - 1;
      if (answer.view) {
        game.view = answer.view;
        queueMicrotask(() => board?.update(answer.view, { animate: false }));
      }
      if (typeof answer.score === "number") game.score = answer.score;
      return { ok: false, code: answer.code, reason: answer.message };
    }
    return { ok: null };
  }

  function applyAck(answer, action) {
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
    if (!game || OVER.has(game.status) || !confirm(t("confirmFinish"))) return;
    const answer = await app.socket.request({ type: "finish", match_id: matchId, seq: game.seq + 1 });
    if (answer.type === "ack") {
      Object.assign(game, { seq: answer.seq, status: answer.status, score: answer.score });
      spectate();
      render();
    }
  }

  // A hint only points: it lights up what to play for a moment and says why; never plays.
  function hint() {
    if (game && !OVER.has(game.status)) app.socket.send({ type: "hint", match_id: matchId });
  }

  function showHint({ action: a, reason }) {
    if (!game) return;
    const q = (s) => [...el.querySelectorAll(s)];
    const col = (c) => `.tableau .column[data-col="${c}"]`;
    const lit = !a ? [] : a.op === "move" ? [...q(`${col(a.from)} .card:not(.back)`).slice(-a.count), ...q(col(a.to))]
      : q(a.op === "flip" ? `${col(a.col)} .back[role=button]` : a.op === "deal" ? ".stock .pilebox" : "#undo");
    lit.forEach((e) => e.classList.add("hinted"));
    setTimeout(() => lit.forEach((e) => e.classList.remove("hinted")), 2500);
    const what = !a ? t("hintNone") : a.op === "move"
      ? t("hintMove", { card: cardName(game.view.columns[a.from].up.at(-a.count)), n: a.to + 1 })
      : a.op === "flip" ? t("hintFlip", { n: a.col + 1 }) : t(a.op === "deal" ? "hintDeal" : "hintUndo");
    announce(`${t("hint")}: ${what}${reason === "deal" ? "" : ` — ${tip(reason)}`}`);
  }

  function announceEvents(events = [], mine) {
    const said = [];
    for (const e of events) {
      if (e.kind === "moved") said.push(t("moved", { card: cardName(e.cards[0]), n: e.to + 1 }));
      else if (e.kind === "dealt") said.push(t("dealt"));
      else if (e.kind === "flipped" && mine) said.push(t("flipped", { card: cardName(e.card), n: e.col + 1 }));
      else if (e.kind === "undone") said.push(t("undone"));
      else if (e.kind === "run_completed") {
        said.push(t("runDone", { suit: suitName(e.suit) }));
        flashRun();
      }
    }
    if (said.length) announce(said.join(" "));
  }

  function flashRun() {
    requestAnimationFrame(() => el.querySelector(".runs .run:last-child")?.classList.add("fresh"));
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
    else return;
    event.preventDefault();
  }

  // ---- drawing
  function render() {
    if (result) return renderResult();
    if (ready) return renderReady();
    if (!game) return renderWaiting();
    const over = OVER.has(game.status);
    const opponentName = nameOf(opponent?.player_id) || t("opponent");
    const boardHost = h("div.boardhost");
    const parts = [
      h("h1.sr", {}, `${t("table")} ${tableId}`),
      h("div.scores", { id: "scores" }),
      h("div.actions", { id: "actions" }),
      notice ? h("p.error", { role: "alert" }, notice) : null,
    ];
    if (over && watch) {
      parts.push(h("h2.watching", { id: "watching" }, `${t("spectating", { name: opponentName })} (${t("readOnly")})`));
    } else if (over) {
      parts.push(h("p.banner", { role: "status" }, t("youFinished", { name: opponentName })));
    }
    parts.push(boardHost);
    clear(el, ...parts);
    if (over && watch) {
      watchBoard = createBoard({
        root: boardHost, rules: game.rules, readOnly: true, onAction: async () => ({ ok: false }),
        title: t("opponentBoard", { name: opponentName }),
      });
      watchBoard.update(watch.view, { animate: false });
    } else {
      board = createBoard({ root: boardHost, rules: game.rules, onAction: act, readOnly: over, title: t("board") });
      board.update(game.view, { animate: false });
    }
    renderScores();
    renderButtons();
  }

  function renderButtons() {
    const host = el.querySelector("#actions");
    if (!host || !game) return;
    const over = OVER.has(game.status);
    clear(host,
      h("button", { type: "button", id: "deal", disabled: over || !game.view.stock, onclick: () => board.deal(), "aria-keyshortcuts": "Space" }, t("deal")),
      h("button", { type: "button", id: "undo", disabled: over || !game.view.can_undo, onclick: () => board.undo(), "aria-keyshortcuts": "Control+Z" }, t("undo")),
      h("button", { type: "button", id: "hint", disabled: over, onclick: hint, "aria-keyshortcuts": "I" }, t("hint")),
      h("button", { type: "button", id: "finish", disabled: over, onclick: finish }, t("finish")));
  }

  function renderScores() {
    const host = el.querySelector("#scores");
    if (!host || !game) return;
    const mine = h("div.player.me", { "aria-label": t("you") },
      h("span.name", {}, me.name),
      stat(t("score"), game.score, "my-score"),
      stat(t("clock"), formatClock(leftNow(game)), "my-clock", "clock"),
      stat(t("runs"), game.view.removed.length));
    const o = opponent;
    const theirs = h("div.player.them", { "aria-label": t("opponent") },
      h("a.name", { href: `#/player/${encodeURIComponent(nameOf(o?.player_id) || "")}` }, nameOf(o?.player_id) || t("opponent")),
      h("span", { class: `dot ${o?.online ? "on" : ""}`, title: o?.online ? t("online") : t("offline") }),
      stat(t("score"), watch ? watch.score : o?.score ?? 0, "their-score"),
      stat(t("runs"), watch ? watch.view.removed.length : o?.runs ?? 0),
      stat(t("time"), formatClock(o ? leftNow(o, o.time_left_ms) : null), "their-clock", "clock"),
      h("span.state", {}, o && OVER.has(o.status) ? `${t("finished")} (${t(statusKey(o.status))})` : t("playing")));
    clear(host, mine, theirs);
  }

  function renderReady() {
    const other = nameOf(undefined) || t("opponent");
    clear(el,
      h("h1", {}, t("table")),
      table ? h("p", {}, tableSummary(table)) : null,
      h("p.banner", { role: "status" }, t("readyText", { name: other })),
      h("div.row",
        h("button.primary", { type: "button", id: "start", onclick: openGame }, t("start")),
        h("button", { type: "button", onclick: leave }, t("leave"))));
  }

  function renderWaiting() {
    const code = table?.invite_code;
    const link = h("input", { id: "invite-link", readonly: true, value: code ? app.inviteUrl(code) : "", "aria-label": t("inviteLink") });
    // Same field across redraws: typing survives table updates. Focus is taken before the
    // new tree takes the field (clear() can no longer see it then).
    const friend = el.querySelector("#friend-name") || h("input", { id: "friend-name", name: "friend", autocomplete: "off" });
    const typing = document.activeElement === friend;
    clear(el,
      h("h1", {}, t("table")),
      table ? h("p", {}, tableSummary(table)) : null,
      notice ? h("p.error", { role: "alert" }, notice) : null,
      h("p.banner", { role: "status" }, t("waiting")),
      h("section.panel", { "aria-labelledby": "inv-h" },
        h("h2", { id: "inv-h" }, t("inviteFriend")),
        h("div.row", link,
          h("button.primary", { type: "button", id: "copy-link", onclick: () => copyLink(link) }, t("copyLink")),
          h("span", { role: "status" }, copied)),
        h("form.row", { onsubmit: (e) => inviteFriend(e, friend) },
          h("label", { for: "friend-name" }, t("friendName")), friend,
          h("button", { type: "submit" }, t("send")))),
      h("button", { type: "button", onclick: leave }, t("leave")));
    if (typing) friend.focus();
    if (table && !code && !currentMatch(table) && !wantNew) makeLink();
  }

  async function makeLink() {
    try {
      const invite = await api.inviteLink(tableId);
      table.invite_code = invite.code;
      renderWaiting();
    } catch (problem) {
      notice = t("error", { detail: problem.message });
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
      copied = t("inviteSent");
      announce(copied);
      renderWaiting();
    } catch (problem) {
      notice = t("error", { detail: problem.message });
      renderWaiting();
    }
  }

  function renderResult() {
    if (replay) {
      return clear(el, replayView({ record: replay, onClose: () => { replay = null; render(); } }));
    }
    clear(el, resultView({
      result, me, nameOf, suits: table?.suits ?? game?.rules.suits,
      onNewGame: newGame, onLeave: leave,
      onReplay: (playerId) => app.socket.send({ type: "get_replay", match_id: matchId, player_id: playerId }),
    }));
  }

  async function newGame() {
    try {
      table = await api.newGame(tableId);
    } catch (problem) {
      notice = t("error", { detail: problem.message });
      return render();
    }
    wantNew = true;
    result = null;
    game = null;
    render();
    load();
  }

  async function leave() {
    await api.leave(tableId).catch(() => null);
    app.go("#/");
  }

  // A player's name from the seats; without an id, the other player's.
  function nameOf(playerId) {
    if (playerId === me.id) return me.name;
    const seats = table?.seats || [];
    const seat = seats.find((s) => (playerId === undefined ? s.player_id !== me.id : s.player_id === playerId));
    return seat?.name ?? "";
  }

  const stop = app.listen(onMessage);
  document.addEventListener("keydown", onKey);
  tick = setInterval(() => {
    for (const node of el.querySelectorAll("#my-clock")) node.textContent = formatClock(leftNow(game));
    const o = watch && opponent ? { ...opponent, status: watch.status } : opponent;
    for (const node of el.querySelectorAll("#their-clock")) node.textContent = formatClock(o ? leftNow(o, o.time_left_ms) : null);
  }, 250);
  render();
  load();
  return {
    el, render,
    destroy() {
      stop();
      clearTimeout(poll);
      clearInterval(tick);
      document.removeEventListener("keydown", onKey);
      if (matchId) {
        app.socket.forget(`game:${matchId}`);
        app.socket.forget(`watch:${matchId}`);
      }
    },
    // Used by tests and by the board: the current state, read-only.
    get state() { return { game, opponent, watch, result }; },
  };
}

function stat(label, value, id, cls) {
  return h("span.stat", {}, h("span.label", {}, label), " ",
    h("span", { id, class: cls || "value" }, String(value)));
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
      player_id: g.player_id, score: g.score, elapsed_ms: g.time_used_ms, reason: g.status,
      rating_before: g.rating_before, rating_after: g.rating_after,
    })),
  };
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
