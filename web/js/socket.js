// The WebSocket connection (docs/protocol.md, version 1): hello/welcome, numbered events,
// resume after a drop, and actions matched to their ack or reject by sequence number.
// Everything the rest of the client knows about the protocol's transport lives here.
const VERSION = 1;
// After a drop the first try goes at once, spread over FIRST_TRY_SPREAD_MS so that the
// players of a server that died do not all knock on the one left in the same
// millisecond (docs/operations.md, failover); a try that fails waits longer each time.
const FIRST_TRY_SPREAD_MS = 100;
const BACKOFF = [250, 500, 1000, 2000, 4000];
// The server could not read a game just now (`unavailable`: its database restarting): what
// we follow is asked for again this much later, as after lost events.
const UNAVAILABLE_RETRY_MS = 1000;
// A stalled network (a phone between cells, a laptop's Wi-Fi gone) closes no socket for
// minutes, and the page looked connected meanwhile. A connection silent QUIET_MS after we
// sent it something (an action, a ping) is asked for a pong; silent PROBE_MS more, it is
// taken for dead. (Not at once: a solver's answer may take longer, but the server answers
// a ping while it searches.)
const QUIET_MS = 5000;
const PROBE_MS = 4000;
const PING_EVERY_MS = 25_000;

export function createSocket({ token, onMessage, onStatus, url = defaultUrl() }) {
  let ws = null;
  let stream = null;
  let lastEvent = null;
  let attempt = 0;
  let closed = false;
  let timer = null;
  let askAgain = null; // the timer that asks again for what we follow after `unavailable`
  const queue = [];
  const answers = answerBook();
  const subscriptions = new Map(); // key → message to send again on a fresh stream

  function connect() {
    // The token goes in the first frame, never on the URL: access logs record URLs.
    ws = new WebSocket(url);
    ws.onopen = () => {
      const hello = { type: "hello", v: VERSION, token };
      if (stream !== null && lastEvent !== null) Object.assign(hello, { stream, last_event: lastEvent });
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => {
      silence.heard();
      receive(JSON.parse(event.data));
    };
    ws.onclose = lost;
    ws.onerror = () => ws?.close();
  }

  function lost() {
    ws = null;
    silence.heard(); // nothing waits on a connection that is gone
    if (closed) return;
    onStatus?.("reconnecting");
    clearTimeout(timer);
    const wait = attempt === 0 ? Math.random() * FIRST_TRY_SPREAD_MS : BACKOFF[Math.min(attempt - 1, BACKOFF.length - 1)];
    attempt += 1;
    timer = setTimeout(connect, wait);
  }

  // Given up on without waiting for its close (which a dead network delays): what it
  // still brings is not read; the next connection resumes the stream, and what was sent
  // on this one settles as after any drop.
  function abandon() {
    const old = ws;
    if (!old) return;
    old.onmessage = old.onclose = old.onerror = null;
    old.close();
    lost();
  }

  const silence = silenceWatch({
    probe: () => ws?.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: "ping" })),
    giveUp: abandon,
  });

  function receive(message) {
    if (message.type === "welcome") {
      attempt = 0;
      const fresh = !message.resumed;
      stream = message.stream;
      if (lastEvent === null || fresh) lastEvent = message.last_event;
      onStatus?.("online");
      if (fresh) answers.settleSentBefore(ws);
      if (fresh) followAgain();
      // A subscription queued before this connection went out just now with the others:
      // sent twice, it would be answered twice (a second snapshot).
      const resent = fresh ? new Set(subscriptions.values()) : new Set();
      while (queue.length) {
        const frame = queue.shift();
        if (!resent.has(frame)) raw(frame);
      }
      answers.leftOn(ws);
      return;
    }
    if (message.type === "error" && message.code === "not_authenticated") {
      closed = true; // a token the server no longer knows: retrying cannot help
      onStatus?.("unauthorized");
      return;
    }
    if (message.type === "error" && message.code === "unavailable") {
      clearTimeout(askAgain); // one more ask, however many refusals came at once
      askAgain = setTimeout(followAgain, UNAVAILABLE_RETRY_MS);
    }
    if (typeof message.n === "number") {
      if (lastEvent !== null && message.n <= lastEvent) return; // already seen before a resume
      // Events lost on the way (Redis was away): what we follow is asked for again, and
      // each answer is a snapshot of it as it is now.
      if (message.type === "resync" || message.n > lastEvent + 1) followAgain();
      lastEvent = message.n;
    }
    // An answer this connection did not ask for is another tab's or device's of the same
    // player: screens apply it as news (`requested` false) instead of losing it.
    onMessage(message, { requested: answers.take(message) });
  }

  // Ask again for everything followed: each answer is a snapshot of it as it is now.
  function followAgain() {
    subscriptions.forEach((frame) => raw(frame));
  }

  function raw(frame) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(frame));
      silence.sent();
    } else queue.push(frame);
  }

  // Send now (or as soon as connected); `key` keeps it to send again on a fresh stream.
  function send(frame, key) {
    if (key) subscriptions.set(key, frame);
    raw(frame);
  }

  // An action or finish: resolves with the server's ack or reject for this seq.
  function request(frame) {
    return new Promise((resolve) => {
      answers.add(frame, resolve, ws?.readyState === WebSocket.OPEN ? ws : null);
      raw(frame);
    });
  }

  // The browser knows when the network goes: said at once, and the connection given up
  // (nothing can pass); when it comes back, a new one at once instead of after a backoff.
  const unfollow = followNetwork({
    offline: () => { if (!closed) { abandon(); onStatus?.("reconnecting"); } },
    online: () => { if (!closed && !ws) { attempt = 0; clearTimeout(timer); connect(); } },
  });

  connect();
  const keepAlive = setInterval(() => ws?.readyState === WebSocket.OPEN && raw({ type: "ping" }), PING_EVERY_MS);
  return {
    send, request,
    forget: (key) => subscriptions.delete(key),
    follows: (key) => subscriptions.has(key),
    close() {
      closed = true;
      clearTimeout(timer); clearTimeout(askAgain); clearInterval(keepAlive);
      silence.stop();
      unfollow();
      ws?.close();
    },
    // For tests and the "reconnecting" state: drop the connection as a network would.
    drop() { ws?.close(); },
    get connected() { return !!ws && ws.readyState === WebSocket.OPEN; },
  };
}

// The answers matched to a request by seq: a duel's ack/reject, a solo game's ack/reject
// (docs/solo-and-daily.md, section 5; a solo_assist names the seq after its steps, so the
// solo screen takes it as a message). Duels and solo games count seqs apart.
const ANSWERS = new Set(["ack", "reject", "solo_ack", "solo_reject"]);
const keyOf = (frame) => (frame.match_id !== undefined ? `${frame.match_id}:${frame.seq}` : `solo${frame.game_id}:${frame.seq}`);

function defaultUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws`;
}

// Whether a duel ack is the answer to `frame` (an action or a finish): the step its
// events show is the one asked for. A duplicate answers a resend of that very step.
function didStep(ack, frame) {
  if (ack.duplicate) return true;
  const events = ack.events || [];
  const moved = events.find((e) => e.kind === "moved");
  const flipped = events.find((e) => e.kind === "flipped" && !e.automatic);
  const step = moved ? `move ${moved.from} ${moved.to}`
    : events.some((e) => e.kind === "undone") ? "undo"
      : events.some((e) => e.kind === "dealt") ? "deal"
        : flipped ? `flip ${flipped.col}` : "finish";
  const a = frame.action;
  const asked = frame.type === "finish" ? "finish"
    : a.op === "move" ? `move ${a.from} ${a.to}` : a.op === "flip" ? `flip ${a.col}` : a.op;
  return step === asked;
}

// Actions and finishes waiting for their ack or reject: "match:seq" or "solo game:seq" →
// { resolve, frame, sentOn }, sentOn the connection the frame left on (null while it
// waits in the queue for one).
function answerBook() {
  const waiting = new Map();
  return {
    add(frame, resolve, sentOn) { waiting.set(keyOf(frame), { resolve, frame, sentOn }); },
    // Whether `message` answers a request of this page (then settled with it). Two tabs
    // may send the same seq at once: the ack of the other tab's step (every tab gets it)
    // is news here, and this tab's own answer (a seq_taken refusal) follows.
    take(message) {
      if (!ANSWERS.has(message.type)) return false;
      const key = keyOf(message);
      const pending = waiting.get(key);
      if (!pending || (message.type === "ack" && !didStep(message, pending.frame))) return false;
      waiting.delete(key);
      pending.resolve(message);
      return true;
    },
    // Those queued while no connection was open left on `ws`, just opened.
    leftOn(ws) { waiting.forEach((entry) => { entry.sentOn ??= ws; }); },
    // A fresh stream (the server no longer knows ours) will never answer what was sent on
    // an older connection: those requests settle as "resync", and the snapshot that the
    // resent subscriptions bring shows the game as it is. A snapshot on the live
    // connection settles nothing: the server still answers every request it got there (a
    // refusal included, which the player must be told; a table reloading itself asks).
    settleSentBefore(ws) {
      waiting.forEach((entry, key) => {
        if (entry.sentOn === null || entry.sentOn === ws) return;
        waiting.delete(key);
        entry.resolve({ type: "resync" });
      });
    },
  };
}

// A connection silent QUIET_MS after we sent it something is asked for a pong (`probe`);
// silent PROBE_MS more, it is given up (`giveUp`). `sent` and `heard` are told of each
// frame out and in.
function silenceWatch({ probe, giveUp }) {
  let awaitedSince = null; // when the oldest frame sent since the last one heard left
  let probedAt = null;
  const watching = setInterval(() => {
    if (awaitedSince === null) return;
    const now = Date.now();
    if (probedAt === null && now - awaitedSince > QUIET_MS) {
      probedAt = now;
      probe();
    } else if (probedAt !== null && now - probedAt > PROBE_MS) giveUp();
  }, 1000);
  return {
    sent() { awaitedSince ??= Date.now(); },
    heard() { awaitedSince = probedAt = null; },
    stop() { clearInterval(watching); },
  };
}

// The browser's online and offline events; returns the way to stop following them.
function followNetwork({ online, offline }) {
  addEventListener("online", online);
  addEventListener("offline", offline);
  return () => {
    removeEventListener("online", online);
    removeEventListener("offline", offline);
  };
}
