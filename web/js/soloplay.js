// A solo or daily game at its table: the duel table's board, cards, drag, tap and keyboard,
// with Deal, Undo (unlimited), Hint, Rescue (it costs points), Auto-complete (offered by
// the server once the rest is proved solvable) and Give up; the clock counts up. Once the
// game is over, the sheet of soloresult.js. Protocol: docs/solo-and-daily.md, section 5.
// This module keeps the screen's state and answers what happens; the game's own state
// (view, score, seq, the action in flight, ack/reject/resync) is a game session
// (session.js, as at the duel table), and the drawing is soloview.js's.
import { h, announce, confirmBox, reducedMotion } from "./dom.js";
import { t, problemText } from "./i18n.js";
import { api } from "./api.js";
import { resolveRules } from "./rules.js";
import { gameSession, SOLO } from "./session.js";
import { showHintOn, sayEvents, enterPlaysHint } from "./hud.js";
import { styled, badgeWords } from "./extra.js";
import { redoStack } from "./redo.js";
import { renderSolo, renderHud, renderPanel, renderButtons, tickSoloClock, COST_PER_SUIT } from "./soloview.js";

await styled;

const RESCUE_STEP_MS = 420; // a rescue's actions are played one by one, slowly enough to follow
const AUTO_STEP_MS = 140; // the auto-complete runs faster: it only finishes a won game
const THINKING_AFTER_MS = 400; // a hint answered sooner shows no "Thinking…"
// "Thinking…"/Cancel and the undo-to-winnable offer: their own module, loaded when needed.
const guideModule = () => import("./sologuide.js");

export function soloPlayScreen(app, { gameId }) {
  const st = {
    app, gameId, el: h("section.screen.solotable"),
    // the game: {kind, number, dailyDate, options, rules, view, score, seq, status,
    // elapsed, at, hints, rescues, auto}; a rejection's view redraws the board once the
    // board has said "no" (it snaps back first)
    session: gameSession(SOLO, { onResync: (view) => queueMicrotask(() => st.board?.update(view, { animate: false })) }),
    get game() { return st.session.game; },
    over: null, // the finished game (REST SoloGame or solo_over), for the sheet
    waitingOver: null, // a solo_over that came while assistance was still being shown
    badges: [], // badges earned while this screen is open
    board: null,
    busy: null, // "rescue", "auto" or "undo" while the server's steps are being shown
    notice: "",
    destroyed: false,
    redo: redoStack(), // the undone actions Redo plays again
    waiting: null, // "hint", "rescue" or "undo" while the server's solver searches
    thinkingTimer: 0,
    offeredMove: null, // the move the last "no win from here" offer named
    playable: () => !!st.game && st.game.status === "playing" && !st.busy && !st.over,
  };
  // What the drawing calls back.
  st.acts = {
    act: (action) => act(st, action),
    hint: () => hint(st),
    rescue: () => rescue(st),
    autoComplete: () => autoComplete(st),
    giveUp: () => giveUp(st),
    redoNext: () => redoNext(st),
  };
  st.render = () => renderSolo(st);

  const tick = setInterval(() => tickSoloClock(st), 500);
  const stop = app.listen((m, meta) => onMessage(st, m, meta));
  const keys = (event) => onKey(st, event);
  document.addEventListener("keydown", keys);
  st.render();
  load(st);
  return {
    el: st.el, render: st.render,
    destroy() {
      st.destroyed = true;
      stopWaiting(st);
      stop();
      clearInterval(tick);
      document.removeEventListener("keydown", keys);
      st.board?.destroy();
      app.socket?.forget(`solo:${gameId}`);
    },
    get state() { return { game: st.game, over: st.over, busy: st.busy }; },
  };
}

async function load(st) {
  try {
    const info = await api.soloGame(st.gameId);
    if (info.status !== "playing") {
      st.over = info;
      return st.render();
    }
  } catch (problem) {
    st.notice = problemText(problem);
    return st.render();
  }
  st.app.socket.send({ type: "solo_open", game_id: st.gameId }, `solo:${st.gameId}`);
}

// ---- socket messages
function onMessage(st, m, meta) {
  if (m.type === "badge") {
    st.badges.push(m.badge);
    if (st.over) st.render();
    return;
  }
  if (m.game_id !== st.gameId) return;
  if (m.type === "solo_snapshot") snapshot(st, m);
  else if (m.type === "solo_ack" && !meta?.requested) news(st, m);
  else if (m.type === "solo_hint") hinted(st, m);
  else if (m.type === "solo_assist" && m.kind === "undo_to_winnable") undone(st, m);
  else if (m.type === "solo_assist") assisted(st, m);
  else if (m.type === "solo_over") ended(st, m);
  else if (m.type === "solo_reject" && st.busy) refusedAssist(st, m);
}

function snapshot(st, m) {
  st.session.start(m, {
    kind: m.kind, number: m.number, dailyDate: m.daily_date, options: m.options,
    rules: resolveRules(m.rules), hints: m.hints, rescues: m.rescues,
  });
  st.redo.resume(st.gameId, m.seq); // after a reload: what Redo had, if nothing moved since
  st.busy = null;
  st.render();
}

function ended(st, m) {
  st.app.socket.forget(`solo:${st.gameId}`);
  const { game } = st;
  const finished = { ...m, kind: game?.kind, options: game?.options, rescues: game?.rescues };
  if (st.busy) st.waitingOver = finished;
  else showOver(st, finished);
}

function showOver(st, finished) {
  st.over = finished;
  st.board?.destroy();
  st.board = null;
  st.render();
  // One live region: badges that came during the last steps are said with the result.
  const earned = st.badges.map((b) => t("badgeEarned", { title: badgeWords(b).title }));
  announce(st.over.status === "won" ? [t("youWon"), t("pointsEarned", { n: st.over.points }), ...earned].join(" ") : t("givenUp"));
}

// ---- my actions, one at a time (the board waits for each answer)
async function act(st, action) {
  if (st.session.over) return { ok: false, code: "game_over" };
  if (st.busy) return { ok: null }; // the solver is playing: the board shows its moves
  if (!st.app.socket.connected) return { ok: false, code: "offline" }; // as at a duel table
  const { gameId } = st;
  const done = await st.session.play(action, (seq) => st.app.socket.request({ type: "solo_action", game_id: gameId, seq, action }));
  if (done.ok && done.applied === "applied") {
    st.redo.played(action);
    st.redo.keep(gameId, st.session.game?.seq);
    closeOffer(st);
    tookAck(st, done.answer, action);
  }
  if (done.ok === false) {
    st.redo.reset();
    st.redo.keep(gameId, st.session.game?.seq); // forgotten after a reload too
  }
  return done.ok === false ? { ok: false, code: done.code, reason: done.reason } : { ok: done.ok };
}

// An ack this connection did not ask for (the same game played elsewhere): taken when its
// seq is past mine; what it played is not mine to redo.
function news(st, answer) {
  if (st.busy || st.session.news(answer) !== "applied") return;
  st.redo.reset();
  tookAck(st, answer, null);
}

function tookAck(st, answer, action) {
  st.board?.update(answer.view, { action });
  sayEvents(st.el, answer.events, true);
  renderHud(st);
}

// As the duel's: asked in the board's turn, for the position it leaves; an answer that
// comes once a newer step of mine is made or on its way is for a board no longer there.
function hint(st) {
  if (!st.playable() || st.waiting || !st.board) return;
  st.el.querySelector(".guidepanel")?.remove();
  startWaiting(st, "hint", THINKING_AFTER_MS);
  st.board.later(() => {
    st.hintFor = st.game?.seq;
    st.app.socket.send({ type: "solo_hint", game_id: st.gameId });
    return null;
  });
}

async function hinted(st, m) {
  stopWaiting(st);
  if (!st.game || st.session.pending || st.game.seq !== st.hintFor) return;
  if (m.verdict === "cancelled") return st.board?.say((await guideModule()).guideText("gdCancelled"), { kind: "refused" });
  if (m.verdict === "no_win") {
    st.board?.say("");
    const guide = await guideModule();
    st.offeredMove = m.undo_to_move ?? null;
    if (!st.destroyed && st.playable()) guide.showUndoOffer(st.el, { move: st.offeredMove, onUndo: () => undoToWinnable(st) });
    return;
  }
  showHintOn(st.el, st.board, st.game.view, m);
}

async function giveUp(st) {
  if (!st.playable()) return;
  // A daily's give-up spends that day's one attempt and ends the streak: say so.
  const question = t(st.game.kind === "daily" ? "confirmGiveUpDaily" : "confirmGiveUp");
  const sure = await confirmBox(question, { yes: t("giveUp"), no: t("keepPlaying"), id: "confirm-giveup" });
  if (!sure) return;
  try {
    st.over = await api.abandonSolo(st.gameId);
    st.app.socket.forget(`solo:${st.gameId}`);
    st.render();
  } catch (problem) {
    st.board?.say(problemText(problem), { kind: "refused" });
  }
}

// A move of the player's closes an offer made for the position before it.
const closeOffer = (st) => st.el.querySelector("#guide-offer")?.remove();

// In the board's turn: a Redo pressed while the Undo before it is on its way redoes what
// that Undo takes back (the stack knows it once the Undo is answered).
function redoNext(st) {
  st.board?.later(() => {
    const action = st.redo.next();
    if (action && st.playable()) return action;
    st.board?.say(t("hxNothingToRedo"), { kind: "refused" });
    return null;
  });
}

// ---- keyboard: the duel's keys, plus R (rescue) and A (auto-complete)
function onKey(st, event) {
  const { board, game } = st;
  if (!board || !st.playable()) return;
  if (event.target.closest("input, textarea, select, dialog")) return;
  if (event.key === " " && event.target.closest("button, a")) return; // Space presses it
  const key = event.key.toLowerCase();
  if (event.key === " ") board.deal();
  else if ((event.ctrlKey || event.metaKey) && (key === "y" || (key === "z" && event.shiftKey))) redoNext(st);
  else if ((event.ctrlKey || event.metaKey) && key === "z") board.undo();
  else if (event.ctrlKey || event.metaKey || event.altKey) return;
  else if (key === "i") hint(st);
  else if (key === "r" && game.auto) pointToAutoComplete(st); // no paid rescue: it is free
  else if (key === "r") rescue(st);
  else if (key === "a" && game.auto) autoComplete(st);
  else if (event.key === "Enter" && enterPlaysHint(event, board)) return;
  else return;
  event.preventDefault();
}

// ---- the solver's waits: "Thinking…" with Cancel after a moment, closed by the answer
function startWaiting(st, what, delay = 0) {
  st.waiting = what;
  clearTimeout(st.thinkingTimer);
  st.thinkingTimer = setTimeout(async () => {
    const guide = await guideModule();
    if (st.waiting === what && !st.destroyed) guide.showThinking(st.el, { onCancel: () => cancelSearch(st) });
  }, delay);
}

function stopWaiting(st) {
  st.waiting = null;
  clearTimeout(st.thinkingTimer);
  st.el.querySelector("#guide-thinking")?.remove();
}

function cancelSearch(st) {
  if (st.waiting) st.app.socket.send({ type: "solo_cancel", game_id: st.gameId });
}

// Undo to the last winnable position: the server's solver finds how far; the undos are
// the player's own (logged as ordinary undos), answered as one solo_assist.
function undoToWinnable(st) {
  if (!st.playable()) return;
  st.busy = "undo";
  renderButtons(st);
  startWaiting(st, "undo");
  st.app.socket.send({ type: "solo_undo_to_winnable", game_id: st.gameId, seq: st.session.nextSeq });
}

async function undone(st, m) {
  stopWaiting(st);
  const guide = await guideModule();
  st.busy = null;
  if (m.steps?.length) {
    st.redo.reset(); // the server's undos: nothing to redo
    st.session.take(m);
    st.board?.update(m.view, { animate: false });
    const move = st.offeredMove;
    const text = Number.isInteger(move) ? guide.guideText("gdBack", { n: move }) : guide.guideText("gdBackSome");
    st.board?.say(text, { kind: "hint" });
    announce(text);
  } else {
    const text = guide.guideText(m.verdict === "cancelled" ? "gdCancelled" : "gdNotFound");
    st.board?.say(text, { kind: "refused" });
    announce(text);
  }
  renderHud(st);
}

// Rescue: the server's solver looks from the real position; the actions it plays come
// back as steps, shown one by one before the final view is taken as the truth. The
// first of a game asks first: it costs a quarter of the win's base, and "points" (of a
// win) are not the Score on the panel.
async function rescue(st) {
  if (!st.playable()) return;
  if (!st.game.rescues) {
    const cost = COST_PER_SUIT * st.game.options.suits;
    const sure = await confirmBox(t("confirmRescue", { n: cost }),
      { yes: t("rescue"), no: t("keepPlaying"), id: "confirm-rescue" });
    if (!sure || !st.playable()) return;
  }
  st.busy = "rescue";
  st.board?.say(t("rescuing"), { kind: "hint" });
  renderButtons(st);
  startWaiting(st, "rescue");
  st.app.socket.send({ type: "solo_rescue", game_id: st.gameId, seq: st.session.nextSeq });
}

function autoComplete(st) {
  if (!st.playable() || !st.game.auto) return;
  st.busy = "auto";
  renderButtons(st);
  st.app.socket.send({ type: "solo_auto_complete", game_id: st.gameId, seq: st.session.nextSeq });
}

function refusedAssist(st, m) {
  st.busy = null;
  stopWaiting(st);
  st.session.resync(m);
  // A rescue asked where the free auto-complete can finish (another tab's, a stale view):
  // nothing was played or charged; offer the auto-complete.
  st.game.auto = m.code === "auto_complete_ready";
  if (st.game.auto) pointToAutoComplete(st);
  else st.board?.say(t("rejected", { reason: problemText(m).replace(/\.$/, "") }), { kind: "refused" });
  renderHud(st);
}

function pointToAutoComplete(st) {
  const { el } = st;
  st.board?.say(t("autoReady"), { kind: "hint" });
  announce(t("autoReady"));
  queueMicrotask(() => el.querySelector("#auto-complete")?.classList.add("hinted"));
  setTimeout(() => el.querySelector("#auto-complete")?.classList.remove("hinted"), 2500);
}

async function assisted(st, m) {
  if (m.duplicate && !st.busy) return;
  // The server's clock is as of this frame's arrival, not of the end of the show below
  // (2 s for a rescue's 5 steps): taken later as "now", the clock would step back.
  const arrived = Date.now();
  const steps = m.steps || [];
  if (m.kind === "rescue") stopWaiting(st);
  if (m.kind === "rescue" && !steps.length) return noRescue(st, m);
  st.busy = m.kind === "rescue" ? "rescue" : "auto";
  st.redo.reset(); // the server's steps are not mine to redo
  if (st.busy === "auto") st.board?.say(t("autoPlaying", { n: steps.length }), { kind: "hint" });
  let view = st.game.view;
  for (const step of steps) {
    await pause(st.busy === "auto" ? AUTO_STEP_MS : RESCUE_STEP_MS);
    if (st.destroyed) return;
    view = applyEvents(view, step.events);
    st.game.view = view; // shown step by step; the answer's view is the truth, below
    st.board?.update(view, { action: step.action });
    renderPanel(st); // the runs and actions counters follow each step
    if (st.busy === "rescue") sayEvents(st.el, step.events, true);
  }
  st.session.take(m, { rescues: m.rescues ?? st.game.rescues, at: arrived });
  st.board?.update(m.view, { animate: false });
  const played = st.busy;
  st.busy = null;
  if (played === "rescue") {
    // What every rescue of the game costs a win, not this one's alone: after 15 rescues it
    // went on saying "250 points less".
    const cost = (m.points_cost * (m.rescues ?? 1)).toLocaleString(document.documentElement.lang);
    const text = t(st.game.status === "won" ? "rescueWon" : "rescuePlayed", { n: steps.length, cost });
    st.board?.say(text, { kind: "hint" });
    announce(text);
  }
  if (st.waitingOver) return showOver(st, st.waitingOver);
  renderHud(st);
}

// A rescue that played nothing: cancelled, or no way out found (the advice: undo a few
// moves, or all the way to where a win exists).
async function noRescue(st, m) {
  const { el } = st;
  st.busy = null;
  const guide = await guideModule();
  if (m.verdict === "cancelled") {
    st.board?.say(guide.guideText("gdCancelled"), { kind: "refused" });
    return renderButtons(st);
  }
  const text = m.verdict === "no_way_out" ? t("noWayOut") : t("rescueUnknown");
  st.board?.say(text, { kind: "refused" });
  announce(text);
  renderButtons(st);
  el.querySelector("#undo")?.classList.add("hinted"); // the advice: undo a few moves
  setTimeout(() => el.querySelector("#undo")?.classList.remove("hinted"), 2500);
  // Or all the way to where a win exists: the solver finds how far.
  st.offeredMove = null;
  if (!st.destroyed && st.playable()) guide.showUndoOffer(el, { move: null, onUndo: () => undoToWinnable(st) });
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, reducedMotion() ? 0 : ms));

// The view after one step of a rescue or an auto-complete, from that step's events (the
// server sends the final view only): moved cards, turned-up cards, completed runs, a deal.
export function applyEvents(view, events = []) {
  const next = { ...view, columns: view.columns.map((c) => ({ down: c.down, up: [...c.up] })), removed: [...view.removed] };
  for (const e of events) {
    if (e.kind === "moved") {
      next.columns[e.from].up.splice(-e.cards.length);
      next.columns[e.to].up.push(...e.cards);
    } else if (e.kind === "flipped") {
      next.columns[e.col].down -= 1;
      next.columns[e.col].up.push(e.card);
    } else if (e.kind === "run_completed") {
      next.columns[e.col].up.splice(-13);
      next.removed.push(e.suit);
    } else if (e.kind === "dealt") {
      e.cards.forEach((card, i) => next.columns[i].up.push(card));
      next.stock -= e.cards.length;
      next.deals_left -= 1;
    }
  }
  next.actions = (view.actions ?? 0) + 1;
  return next;
}
