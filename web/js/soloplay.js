// A solo or daily game at its table: the duel table's board, cards, drag, tap and keyboard,
// with Deal, Undo (unlimited), Hint, Rescue (it costs points), Auto-complete (offered by
// the server once the rest is proved solvable) and Give up; the clock counts up. Once the
// game is over, the sheet of soloresult.js. Protocol: docs/solo-and-daily.md, section 5.
import { h, clear, announce, confirmBox, copyText, reducedMotion } from "./dom.js";
import { t, problemText } from "./i18n.js";
import { api } from "./api.js";
import { createBoard } from "./board.js";
import { icon } from "./face.js";
import { resolveRules } from "./rules.js";
import { showHintOn, sayEvents, enterPlaysHint } from "./table.js";
import { styled, suitsLabel, glyphs, duration, day, badgeWords } from "./extra.js";
import { soloResultView } from "./soloresult.js";
import { playLink } from "./result.js";
import { redoStack } from "./redo.js";

await styled;

const RESCUE_STEP_MS = 420; // a rescue's actions are played one by one, slowly enough to follow
const AUTO_STEP_MS = 140; // the auto-complete runs faster: it only finishes a won game
const COST_PER_SUIT = 250; // a rescue that plays costs 250 × suits points (docs/points.md)
const THINKING_AFTER_MS = 400; // a hint answered sooner shows no "Thinking…"
// "Thinking…"/Cancel and the undo-to-winnable offer: their own module, loaded when needed.
const guideModule = () => import("./sologuide.js");

export function soloPlayScreen(app, { gameId }) {
  const el = h("section.screen.solotable");
  let game = null; // {kind, number, dailyDate, options, rules, view, score, seq, status, elapsed, at, hints, rescues, auto}
  let over = null; // the finished game (REST SoloGame or solo_over), for the sheet
  let waitingOver = null; // a solo_over that came while assistance was still being shown
  const badges = []; // badges earned while this screen is open
  let board = null;
  let busy = null; // "rescue" or "auto" while the server's steps are being shown
  let notice = "";
  let destroyed = false;
  const redo = redoStack(); // the undone actions Redo plays again
  let waiting = null; // "hint", "rescue" or "undo" while the server's solver searches
  let thinkingTimer = 0;
  let offeredMove = null; // the move the last "no win from here" offer named

  async function load() {
    try {
      const info = await api.soloGame(gameId);
      if (info.status !== "playing") {
        over = info;
        return render();
      }
    } catch (problem) {
      notice = problemText(problem);
      return render();
    }
    app.socket.send({ type: "solo_open", game_id: gameId }, `solo:${gameId}`);
  }

  // ---- socket messages
  function onMessage(m) {
    if (m.type === "badge") {
      badges.push(m.badge);
      if (over) render();
      return;
    }
    if (m.game_id !== gameId) return;
    if (m.type === "solo_snapshot") snapshot(m);
    else if (m.type === "solo_hint") hinted(m);
    else if (m.type === "solo_assist" && m.kind === "undo_to_winnable") undone(m);
    else if (m.type === "solo_assist") assisted(m);
    else if (m.type === "solo_over") ended(m);
    else if (m.type === "solo_reject" && busy) refusedAssist(m);
  }

  // ---- the solver's waits: "Thinking…" with Cancel after a moment, closed by the answer
  function startWaiting(what, delay = 0) {
    waiting = what;
    clearTimeout(thinkingTimer);
    thinkingTimer = setTimeout(async () => {
      const guide = await guideModule();
      if (waiting === what && !destroyed) guide.showThinking(el, { onCancel: cancelSearch });
    }, delay);
  }

  function stopWaiting() {
    waiting = null;
    clearTimeout(thinkingTimer);
    el.querySelector("#guide-thinking")?.remove();
  }

  function cancelSearch() {
    if (waiting) app.socket.send({ type: "solo_cancel", game_id: gameId });
  }

  async function hinted(m) {
    stopWaiting();
    if (m.verdict === "cancelled") return board?.say((await guideModule()).guideText("gdCancelled"), { kind: "refused" });
    if (m.verdict === "no_win") {
      board?.say("");
      const guide = await guideModule();
      offeredMove = m.undo_to_move ?? null;
      if (!destroyed && playable()) guide.showUndoOffer(el, { move: offeredMove, onUndo: undoToWinnable });
      return;
    }
    showHintOn(el, board, game.view, m);
  }

  // Undo to the last winnable position: the server's solver finds how far; the undos are
  // the player's own (logged as ordinary undos), answered as one solo_assist.
  function undoToWinnable() {
    if (!playable()) return;
    busy = "undo";
    renderButtons();
    startWaiting("undo");
    app.socket.send({ type: "solo_undo_to_winnable", game_id: gameId, seq: game.seq + 1 });
  }

  async function undone(m) {
    stopWaiting();
    const guide = await guideModule();
    busy = null;
    if (m.steps?.length) {
      redo.reset(); // the server's undos: nothing to redo
      Object.assign(game, {
        view: m.view, score: m.score, seq: m.seq, status: m.status, elapsed: m.elapsed_ms,
        at: Date.now(), auto: m.auto_complete,
      });
      board?.update(m.view, { animate: false });
      const move = offeredMove;
      const text = Number.isInteger(move) ? guide.guideText("gdBack", { n: move }) : guide.guideText("gdBackSome");
      board?.say(text, { kind: "hint" });
      announce(text);
    } else {
      const text = guide.guideText(m.verdict === "cancelled" ? "gdCancelled" : "gdNotFound");
      board?.say(text, { kind: "refused" });
      announce(text);
    }
    renderHud();
  }

  function snapshot(m) {
    game = {
      kind: m.kind, number: m.number, dailyDate: m.daily_date, options: m.options,
      rules: resolveRules(m.rules), view: m.view, score: m.score, seq: m.seq, status: m.status,
      elapsed: m.elapsed_ms, at: Date.now(), hints: m.hints, rescues: m.rescues, auto: m.auto_complete,
    };
    redo.reset();
    busy = null;
    render();
  }

  function ended(m) {
    app.socket.forget(`solo:${gameId}`);
    const finished = { ...m, kind: game?.kind, options: game?.options, rescues: game?.rescues };
    if (busy) waitingOver = finished;
    else showOver(finished);
  }

  function showOver(finished) {
    over = finished;
    board?.destroy();
    board = null;
    render();
    // One live region: badges that came during the last steps are said with the result.
    const earned = badges.map((b) => t("badgeEarned", { title: badgeWords(b).title }));
    announce(over.status === "won" ? [t("youWon"), t("pointsEarned", { n: over.points }), ...earned].join(" ") : t("givenUp"));
  }

  // ---- my actions, one at a time (the board waits for each answer)
  async function act(action) {
    if (!game || game.status !== "playing") return { ok: false, code: "game_over" };
    if (busy) return { ok: null }; // the solver is playing: the board shows its moves
    const answer = await app.socket.request({ type: "solo_action", game_id: gameId, seq: game.seq + 1, action });
    if (answer.type === "solo_ack") {
      Object.assign(game, {
        seq: answer.seq, view: answer.view, score: answer.score, status: answer.status,
        elapsed: answer.elapsed_ms, at: Date.now(), auto: answer.auto_complete,
      });
      redo.played(action);
      closeOffer();
      board?.update(answer.view, { action });
      sayEvents(el, answer.events, true);
      renderHud();
      return { ok: true };
    }
    if (answer.type === "solo_reject") {
      redo.reset();
      resync(answer);
      return { ok: false, code: answer.code, reason: answer.message };
    }
    return { ok: null };
  }

  function resync(answer) {
    if (answer.next_seq) game.seq = answer.next_seq - 1;
    if (typeof answer.score === "number") game.score = answer.score;
    if (answer.status) game.status = answer.status;
    if (answer.view) {
      game.view = answer.view;
      queueMicrotask(() => board?.update(answer.view, { animate: false }));
    }
  }

  function hint() {
    if (!playable() || waiting) return;
    el.querySelector(".guidepanel")?.remove();
    startWaiting("hint", THINKING_AFTER_MS);
    app.socket.send({ type: "solo_hint", game_id: gameId });
  }

  // Rescue: the server's solver looks from the real position; the actions it plays come
  // back as steps, shown one by one before the final view is taken as the truth. The
  // first of a game asks first: it costs a quarter of the win's base, and "points" (of a
  // win) are not the Score on the panel.
  async function rescue() {
    if (!playable()) return;
    if (!game.rescues) {
      const cost = COST_PER_SUIT * game.options.suits;
      const sure = await confirmBox(t("confirmRescue", { n: cost }),
        { yes: t("rescue"), no: t("keepPlaying"), id: "confirm-rescue" });
      if (!sure || !playable()) return;
    }
    busy = "rescue";
    board?.say(t("rescuing"), { kind: "hint" });
    renderButtons();
    startWaiting("rescue");
    app.socket.send({ type: "solo_rescue", game_id: gameId, seq: game.seq + 1 });
  }

  function autoComplete() {
    if (!playable() || !game.auto) return;
    busy = "auto";
    renderButtons();
    app.socket.send({ type: "solo_auto_complete", game_id: gameId, seq: game.seq + 1 });
  }

  function refusedAssist(m) {
    busy = null;
    stopWaiting();
    resync(m);
    // A rescue asked where the free auto-complete can finish (another tab's, a stale view):
    // nothing was played or charged; offer the auto-complete.
    game.auto = m.code === "auto_complete_ready";
    if (game.auto) pointToAutoComplete();
    else board?.say(t("rejected", { reason: problemText(m).replace(/\.$/, "") }), { kind: "refused" });
    renderHud();
  }

  function pointToAutoComplete() {
    board?.say(t("autoReady"), { kind: "hint" });
    announce(t("autoReady"));
    queueMicrotask(() => el.querySelector("#auto-complete")?.classList.add("hinted"));
    setTimeout(() => el.querySelector("#auto-complete")?.classList.remove("hinted"), 2500);
  }

  async function assisted(m) {
    if (m.duplicate && !busy) return;
    const steps = m.steps || [];
    if (m.kind === "rescue") stopWaiting();
    if (m.kind === "rescue" && !steps.length) {
      busy = null;
      const guide = await guideModule();
      if (m.verdict === "cancelled") {
        board?.say(guide.guideText("gdCancelled"), { kind: "refused" });
        return renderButtons();
      }
      const text = m.verdict === "no_way_out" ? t("noWayOut") : t("rescueUnknown");
      board?.say(text, { kind: "refused" });
      announce(text);
      renderButtons();
      el.querySelector("#undo")?.classList.add("hinted"); // the advice: undo a few moves
      setTimeout(() => el.querySelector("#undo")?.classList.remove("hinted"), 2500);
      // Or all the way to where a win exists: the solver finds how far.
      offeredMove = null;
      if (!destroyed && playable()) guide.showUndoOffer(el, { move: null, onUndo: undoToWinnable });
      return;
    }
    busy = m.kind === "rescue" ? "rescue" : "auto";
    redo.reset(); // the server's steps are not mine to redo
    if (busy === "auto") board?.say(t("autoPlaying", { n: steps.length }), { kind: "hint" });
    let view = game.view;
    for (const step of steps) {
      await pause(busy === "auto" ? AUTO_STEP_MS : RESCUE_STEP_MS);
      if (destroyed) return;
      view = applyEvents(view, step.events);
      game.view = view;
      board?.update(view, { action: step.action });
      renderPanel(); // the runs and actions counters follow each step
      if (busy === "rescue") sayEvents(el, step.events, true);
    }
    Object.assign(game, {
      view: m.view, score: m.score, seq: m.seq, status: m.status, elapsed: m.elapsed_ms,
      at: Date.now(), rescues: m.rescues ?? game.rescues, auto: m.auto_complete,
    });
    board?.update(m.view, { animate: false });
    const played = busy;
    busy = null;
    if (played === "rescue") {
      const text = t(game.status === "won" ? "rescueWon" : "rescuePlayed", { n: steps.length, cost: m.points_cost });
      board?.say(text, { kind: "hint" });
      announce(text);
    }
    if (waitingOver) return showOver(waitingOver);
    renderHud();
  }

  async function giveUp() {
    if (!playable()) return;
    // A daily's give-up spends that day's one attempt and ends the streak: say so.
    const question = t(game.kind === "daily" ? "confirmGiveUpDaily" : "confirmGiveUp");
    const sure = await confirmBox(question, { yes: t("giveUp"), no: t("keepPlaying"), id: "confirm-giveup" });
    if (!sure) return;
    try {
      over = await api.abandonSolo(gameId);
      app.socket.forget(`solo:${gameId}`);
      render();
    } catch (problem) {
      board?.say(problemText(problem), { kind: "refused" });
    }
  }

  const playable = () => game && game.status === "playing" && !busy && !over;
  // A move of the player's closes an offer made for the position before it.
  const closeOffer = () => el.querySelector("#guide-offer")?.remove();

  function redoNext() {
    const action = redo.next();
    if (!action || !playable()) return board?.say(t("hxNothingToRedo"), { kind: "refused" });
    act(action);
  }

  // ---- keyboard: the duel's keys, plus R (rescue) and A (auto-complete)
  function onKey(event) {
    if (!board || !playable()) return;
    if (event.target.closest("input, textarea, select, dialog")) return;
    if (event.key === " " && event.target.closest("button, a")) return; // Space presses it
    const key = event.key.toLowerCase();
    if (event.key === " ") board.deal();
    else if ((event.ctrlKey || event.metaKey) && (key === "y" || (key === "z" && event.shiftKey))) redoNext();
    else if ((event.ctrlKey || event.metaKey) && key === "z") board.undo();
    else if (event.ctrlKey || event.metaKey || event.altKey) return;
    else if (key === "i") hint();
    else if (key === "r" && game.auto) pointToAutoComplete(); // no paid rescue: it is free
    else if (key === "r") rescue();
    else if (key === "a" && game.auto) autoComplete();
    else if (event.key === "Enter" && enterPlaysHint(event, board)) return;
    else return;
    event.preventDefault();
  }

  // ---- drawing: the duel table's heads-up display with one player panel
  function render() {
    el.classList.remove("game");
    if (over) {
      return clear(el, soloResultView({ game: over, badges, onNewDeal: () => app.go("#/solo") }));
    }
    if (!game) {
      return clear(el, h("div.page.narrow", notice ? h("p.error", { role: "alert" }, notice)
        : h("p.banner.waiting", { role: "status" }, h("span.spinner", { "aria-hidden": "true" }), t("dealNo", { n: "…" }))));
    }
    el.classList.add("game");
    const boardHost = h("div.boardhost");
    const trayHost = h("div.trayhost");
    const statusHost = h("div.statushost");
    clear(el,
      h("h1.sr", {}, title()),
      h("div.players", { id: "scores" }),
      trayHost,
      h("div.controls", { id: "actions" }),
      h("div.statusbar", statusHost),
      boardHost);
    board?.destroy();
    board = createBoard({ root: boardHost, trayHost, statusHost, rules: game.rules, onAction: act, title: t("board") });
    board.update(game.view, { animate: false });
    renderHud();
  }

  function title() {
    return game.kind === "daily" ? t("dailyOf", { date: day(game.dailyDate) }) : t("dealNo", { n: game.number });
  }

  function renderHud() {
    renderPanel();
    renderButtons();
  }

  function renderPanel() {
    const host = el.querySelector("#scores");
    if (!host || !game) return;
    const link = game.kind === "solo" ? playLink(game.number, game.options) : null;
    clear(host, h("div.player.me.soloplayer", { role: "group", "aria-label": t("you") },
      // The suit count: in words, and as pips alone where a phone has no room for them.
      h("div.who", h("span.name", {}, title()), h("span.tag", {}, h("span.sr", {}, suitsLabel(game.options.suits)),
        h("span.pips", { "aria-hidden": "true" }, glyphs(game.options.suits)),
        h("span.words", { "aria-hidden": "true" }, suitsLabel(game.options.suits))),
        link ? h("button.roundbtn.copylink", {
          type: "button", id: "copy-deal-link", title: t("playLink"), "aria-label": t("playLink"),
          onclick: async () => announce((await copyText(link)) ? t("copied") : link),
        }, icon("copy")) : null),
      h("div.clock", h("span.sr", {}, t("elapsed")), h("span", { id: "solo-clock" }, duration(elapsedNow()))),
      h("div.stats",
        stat(t("score"), game.score, "solo-score"),
        stat(t("runs"), `${game.view.removed.length}/8`, "solo-runs"),
        stat(t("actions"), game.view.actions ?? "—", "solo-actions"))));
  }

  function renderButtons() {
    const host = el.querySelector("#actions");
    if (!host || !game) return;
    const off = !playable();
    const cost = COST_PER_SUIT * game.options.suits;
    const button = (id, name, text, props, extra) => h("button.game", { type: "button", id, ...props },
      icon(name), h("span.label", {}, text), extra);
    clear(host,
      button("deal", "deal", t("deal"), { disabled: off || !game.view.stock, onclick: () => board.deal(), "aria-keyshortcuts": "Space", "data-key": t("keySpaceName") }),
      button("undo", "undo", t("undo"), { disabled: off, "aria-disabled": !off && !game.view.can_undo ? "true" : null, onclick: () => board.undo(), "aria-keyshortcuts": "Control+Z", "data-key": t("keyUndoName"), "data-short": t("undoShort") }),
      button("redo", "undo", t("hxRedo"), { class: "redo", disabled: off || !redo.size, onclick: redoNext, "aria-keyshortcuts": "Control+Y Control+Shift+Z", "data-key": t("hxRedoKey"), "data-short": t("hxRedo") }),
      button("hint", "hint", t("hint"), { disabled: off, onclick: hint, "aria-keyshortcuts": "I", "data-key": "I" }),
      game.auto && !busy
        ? button("auto-complete", "auto", t("autoComplete"), { class: "primary", onclick: autoComplete, "aria-keyshortcuts": "A", "data-key": "A" })
        : button("rescue", "rescue", t("rescue"), {
          disabled: off, onclick: rescue, "aria-keyshortcuts": "R", "data-key": "R",
          "aria-label": `${t("rescue")} (${t("rescueCost", { n: cost })})`,
        }, h("span.cost", { "aria-hidden": "true" }, t("rescueCost", { n: cost }))),
      button("give-up", "leave", t("giveUp"), { class: "quit", disabled: off, onclick: giveUp, "data-short": t("giveUpShort") }));
  }

  // The clock counts up from the server's figure, between frames.
  const elapsedNow = () => (game.status === "playing" ? game.elapsed + (Date.now() - game.at) : game.elapsed);
  const tick = setInterval(() => {
    const node = el.querySelector("#solo-clock");
    if (node && game) node.textContent = duration(elapsedNow());
  }, 500);

  const stop = app.listen(onMessage);
  document.addEventListener("keydown", onKey);
  render();
  load();
  return {
    el, render,
    destroy() {
      destroyed = true;
      stopWaiting();
      stop();
      clearInterval(tick);
      document.removeEventListener("keydown", onKey);
      board?.destroy();
      app.socket?.forget(`solo:${gameId}`);
    },
    get state() { return { game, over, busy }; },
  };
}

function stat(label, value, id) {
  return h("span.stat", {}, h("span.label", {}, label), " ", h("span.value", { id }, String(value)));
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
