// One game as the client knows it, shared by the duel table (table.js) and the solo table
// (soloplay.js): its state (view, score, status, seq, the clock's last figure), the action
// sent and not answered yet, and what each answer does to them (docs/protocol.md,
// "Sequence numbers"; docs/solo-and-daily.md, section 5):
// - my own ack: taken, unless a newer step (another tab's) is already here;
// - another tab's or device's ack (news): taken when its seq is past mine;
// - a duplicate (the same step answered again): already here, nothing changes;
// - a reject: the authoritative view, score, status and next seq replace mine (resync);
//   an outdated seq (a duel's `stale_seq`/`bad_seq`) is tried once more on the fresh view;
// - a snapshot (opening, a fresh connection): the game as it is, from scratch; an action
//   in flight is still answered if the snapshot is of the same game.
// Pure logic: no DOM, no socket. The screens send through `play(action, send)` and draw
// what it reports; what differs between a duel and a solo game (frame names, the clock,
// the retry) is the mode, below.

// The statuses of a duel game that is over ("timeout" is the old name of "timed_out").
export const OVER = new Set(["won", "finished", "timeout", "timed_out", "did_not_start"]);

// A duel seat: time left counts down; an outdated seq is tried once more (another tab of
// mine played first).
export const DUEL = {
  ack: "ack", reject: "reject",
  retry: ["stale_seq", "bad_seq"],
  over: (status) => OVER.has(status),
  clock: (frame) => ({ left: frame.time_left_ms }),
};

// A solo or daily game: the clock counts up, the server says whether Auto-complete is
// offered; one connection plays it, so no retry.
export const SOLO = {
  ack: "solo_ack", reject: "solo_reject",
  retry: [],
  over: (status) => status !== "playing",
  clock: (frame) => ({ elapsed: frame.elapsed_ms, auto: frame.auto_complete }),
};

// `onResync(view)`: called when a reject replaces the view (the screen redraws the board
// from it). `now`: the clock the state's `at` is read from (tests give their own).
export function gameSession(mode, { onResync = () => {}, now = Date.now } = {}) {
  let game = null; // {view, score, status, seq, at, ...the mode's clock, ...the screen's own}
  let pending = null; // {seq, action}: sent, not answered yet
  // Which game the answers are for: a snapshot of another game (a new match at the
  // table, another deal) or `clear` starts a new one, and an answer to an action of the
  // old one changes nothing. A snapshot of the same game (a second answer to opening it,
  // a subscription asked for again) does not: the server still answers that action, and
  // a refusal must be said.
  let current = { key: undefined };

  // A frame that carries the whole state (ack, solo_assist): taken as it is.
  function take(frame, extra = {}) {
    Object.assign(game, {
      seq: frame.seq, view: frame.view ?? game.view, score: frame.score, status: frame.status,
      at: now(), ...mode.clock(frame), ...extra,
    });
  }

  // What an ack does here: "applied", "duplicate" (this very step is already here: a
  // resend answered again) or "stale" (a newer step, another tab's, is already here).
  function ack(answer) {
    if (!game) return "stale";
    if (answer.seq < game.seq) return "stale";
    if (answer.seq === game.seq && answer.duplicate) return "duplicate";
    take(answer);
    return "applied";
  }

  // An ack this connection did not ask for: my own step made in another tab or on another
  // device, the same game; applied when its seq is past mine (never twice).
  function news(answer) {
    if (!game || answer.seq <= game.seq) return "stale";
    take(answer);
    return "applied";
  }

  // A reject (or any frame with `next_seq`): the server's state replaces mine.
  function resync(frame) {
    if (!game) return;
    if (frame.next_seq) game.seq = frame.next_seq - 1;
    if (typeof frame.score === "number") game.score = frame.score;
    if (frame.status) game.status = frame.status;
    if (frame.view) {
      game.view = frame.view;
      onResync(frame.view);
    }
  }

  // One action: `send(seq)` sends it with that seq and resolves with the answer (the
  // socket's request). Resolves {ok: true, applied} (an ack), {ok: false, code, reason}
  // (refused: the state is the server's now), or {ok: null} (no answer: the connection
  // was renewed, or the game changed meanwhile; a snapshot shows it as it is).
  async function play(action, send) {
    if (!game || mode.over(game.status)) return { ok: false, code: "game_over" };
    const mine = current;
    pending = { seq: game.seq + 1, action };
    let answer = await send(pending.seq);
    if (current === mine && answer.type === mode.reject && mode.retry.includes(answer.code) && answer.next_seq) {
      resync(answer);
      pending = { seq: game.seq + 1, action };
      answer = await send(pending.seq);
    }
    pending = null;
    if (current !== mine) return { ok: null, answer };
    if (answer.type === mode.ack) return { ok: true, applied: ack(answer), answer };
    if (answer.type === mode.reject) {
      resync(answer);
      return { ok: false, code: answer.code, reason: answer.message, answer };
    }
    return { ok: null, answer };
  }

  return {
    get game() { return game; },
    get pending() { return pending; },
    get over() { return !game || mode.over(game.status); },
    get nextSeq() { return game ? game.seq + 1 : 1; },
    // A snapshot: the game from scratch; `extra` are the screen's own fields.
    start(snapshot, extra = {}) {
      const key = snapshot.match_id ?? snapshot.game_id;
      if (!game || key !== current.key) {
        current = { key };
        pending = null;
      }
      game = {
        view: snapshot.view, score: snapshot.score, seq: snapshot.seq, status: snapshot.status,
        at: now(), ...mode.clock(snapshot), ...extra,
      };
      return game;
    },
    clear() { game = null; pending = null; current = { key: undefined }; },
    take, ack, news, resync, play,
  };
}

// The action an ack's events show (to animate news: another tab's step, a watched game).
export function actionOf(events = []) {
  const moved = events.find((e) => e.kind === "moved");
  if (moved) return { op: "move", from: moved.from, to: moved.to, count: moved.cards.length };
  if (events.some((e) => e.kind === "dealt")) return { op: "deal" };
  return null;
}
