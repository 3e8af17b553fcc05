// The people around a duel, loaded on demand (never by the first page): the banner that
// says the score to beat once the other game is over, canned messages at the table, and
// friend requests. Words and styles come with this module; every key starts with "sx" so
// that no other words module's key is shadowed.
import { h, clear, announce, formatClock } from "./dom.js";
import { t, addWords, problemText, lang } from "./i18n.js";
import { call } from "./api.js";

addWords({
  en: {
    sxBeat: "{name} finished with {score} — you need {need}.", sxTie: "{score} is enough if your game takes less than {time}.",
    sxAhead: "{name} finished with {score} — you lead with {mine}.",
    sxSay: "Say…", sxSaid: "{name}: {text}", sxYou: "You: {text}",
    sx_good_luck: "Good luck!", sx_well_played: "Well played!", sx_rematch: "Rematch?",
    sxTooFast: "Wait a few seconds before the next message.",
    sxRequests: "Friend requests", sxRequestFrom: "{name} wants to be your friend.", sxRequestTo: "Request sent to {name}; waiting for an answer.",
    sxAddFriend: "Add friend", sxRequestSent: "Friend request sent", sxCancelRequest: "Cancel request",
    sxAccepted: "{name} accepted your friend request.", sxNowFriends: "You and {name} are friends now.",
    sxDeclined: "Request declined.",
  },
  fr: {
    sxBeat: "{name} a fini avec {score} — il vous faut {need}.", sxTie: "{score} suffit si votre partie dure moins de {time}.",
    sxAhead: "{name} a fini avec {score} — vous menez avec {mine}.",
    sxSay: "Dire…", sxSaid: "{name} : {text}", sxYou: "Vous : {text}",
    sx_good_luck: "Bonne chance !", sx_well_played: "Bien joué !", sx_rematch: "Revanche ?",
    sxTooFast: "Attendez quelques secondes avant le message suivant.",
    sxRequests: "Demandes d'amitié", sxRequestFrom: "{name} veut être votre ami.", sxRequestTo: "Demande envoyée à {name} ; en attente de réponse.",
    sxAddFriend: "Ajouter en ami", sxRequestSent: "Demande envoyée", sxCancelRequest: "Annuler la demande",
    sxAccepted: "{name} a accepté votre demande d'amitié.", sxNowFriends: "{name} et vous êtes amis.",
    sxDeclined: "Demande refusée.",
  },
  de: {
    sxBeat: "{name} ist mit {score} fertig — du brauchst {need}.", sxTie: "{score} reicht, wenn dein Spiel weniger als {time} dauert.",
    sxAhead: "{name} ist mit {score} fertig — du führst mit {mine}.",
    sxSay: "Sagen…", sxSaid: "{name}: {text}", sxYou: "Du: {text}",
    sx_good_luck: "Viel Glück!", sx_well_played: "Gut gespielt!", sx_rematch: "Revanche?",
    sxTooFast: "Warte ein paar Sekunden bis zur nächsten Nachricht.",
    sxRequests: "Freundschaftsanfragen", sxRequestFrom: "{name} möchte dein Freund sein.", sxRequestTo: "Anfrage an {name} gesendet; wartet auf Antwort.",
    sxAddFriend: "Als Freund hinzufügen", sxRequestSent: "Anfrage gesendet", sxCancelRequest: "Anfrage zurückziehen",
    sxAccepted: "{name} hat deine Freundschaftsanfrage angenommen.", sxNowFriends: "Du und {name} seid jetzt Freunde.",
    sxDeclined: "Anfrage abgelehnt.",
  },
});

// This module's looks, added once to the page (the first page's stylesheet stays as it is).
const STYLE = `
.social { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem .6rem; }
.social .beat { font-weight: 600; }
.result .social { justify-content: center; margin-top: .7rem; }
.social .beat.ahead { background: rgba(90, 200, 120, .16); border-color: rgba(90, 200, 120, .5); }
.social .said { margin: 0; padding: .25rem .8rem; }
.social .say { display: inline-flex; gap: .3rem; flex-wrap: wrap; align-items: center; }
.social .say summary { min-height: 44px; display: inline-flex; align-items: center; padding: 0 .7rem; border-radius: 10px; cursor: pointer; list-style: none; border: 1px solid rgba(255, 255, 255, .25); }
.social .say summary::-webkit-details-marker { display: none; }
.social .say[open] summary { background: rgba(255, 255, 255, .12); }
.social .say .choices { display: inline-flex; gap: .3rem; flex-wrap: wrap; margin-left: .3rem; max-width: 100%; }
.social .say:not([open]) .choices { display: none; }
.social .say { max-width: 100%; }
.social .say button { min-height: 44px; padding: .2rem .7rem; font-size: .9rem; }
.screen.table > .social { margin: 0 auto 1rem; max-width: 46rem; justify-content: center; }
.requests h3 { font-size: 1rem; margin: .2rem 0 .5rem; }
.request-list li { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; }
.request-list .grow { flex: 1 1 12rem; }
`;
function addStyle() {
  if (document.getElementById("social-style")) return;
  document.head.append(h("style", { id: "social-style" }, STYLE));
}

const OVER = new Set(["won", "finished", "timeout", "timed_out", "did_not_start"]);
export const CODES = ["good_luck", "well_played", "rematch"];
const SAID_FOR_MS = 12_000; // a canned message stays on screen this long

const codeText = (code) => t(`sx_${code}`);

// The score to beat once the other game is over: one point more, or the same score in a
// shorter game (rules.md: on a tie, the faster game wins). `tieTime`: how long my game may
// still take for a tie to win, null when it is too late for that (or not known).
export function scoreToBeat({ theirScore, theirMs, myMs }) {
  const tieTime = typeof theirMs === "number" && typeof myMs === "number" && myMs < theirMs ? theirMs : null;
  return { need: theirScore + 1, tieTime };
}

// At a duel table: `state()` gives the table's current {matchId, game, opponent, nameOf, me};
// `el` is put by the table where it draws its status line (or above the result).
export function tableSocial(app, state) {
  addStyle();
  const el = h("div.social", { id: "social" });
  let said = null; // {playerId, code, at}: the last canned message said at this table
  let notice = "";
  let timer = null;
  let sayBox = null; // built once: a redraw moves it, so a fold or unfold in flight holds
  let sayLang = null; // the language its words are in

  function myElapsed(game) {
    if (!game?.limit || typeof game.left !== "number") return null;
    const left = game.status === "playing" ? game.left - (Date.now() - game.at) : game.left;
    return game.limit - left;
  }

  // The time the other player's game used: said by its game_over; after a reload only a
  // progress is at hand, whose clock stopped with the game (the limit less what was left).
  // Without it the tie clause ("55 is enough if your game takes less than 6:40") was lost.
  function theirElapsed(game, opponent) {
    if (typeof opponent.elapsed_ms === "number") return opponent.elapsed_ms;
    return typeof game.limit === "number" && typeof opponent.time_left_ms === "number"
      ? game.limit - opponent.time_left_ms : null;
  }

  function banner() {
    const { game, opponent, nameOf } = state();
    if (!game || OVER.has(game.status) || !opponent || !OVER.has(opponent.status)) return null;
    if (opponent.status === "did_not_start") return null; // a no-show loses whatever I score
    const name = nameOf(opponent.player_id) || t("opponent");
    const { need, tieTime } = scoreToBeat({ theirScore: opponent.score, theirMs: theirElapsed(game, opponent), myMs: myElapsed(game) });
    if (game.score >= need) {
      return h("p.banner.beat.ahead", { id: "score-to-beat", role: "status" }, t("sxAhead", { name, score: opponent.score, mine: game.score }));
    }
    return h("p.banner.beat", { id: "score-to-beat", role: "status" }, t("sxBeat", { name, score: opponent.score, need }),
      tieTime !== null ? ` ${t("sxTie", { score: opponent.score, time: formatClock(tieTime) })}` : null);
  }

  function saidLine() {
    if (!said || Date.now() - said.at > SAID_FOR_MS) return null;
    const { me, nameOf } = state();
    const text = codeText(said.code);
    return h("p.banner.news.said", { id: "said", role: "status" },
      said.playerId === me.id ? t("sxYou", { text }) : t("sxSaid", { name: nameOf(said.playerId) || t("opponent"), text }));
  }

  function sayButtons() {
    const { matchId, game, opponent } = state();
    if (!matchId || !game || !opponent) return null; // a quick duel nobody is paired into: nobody to tell
    // Folded behind one small "Say…" (a phone's felt has no row to spare); open, the three.
    // The same element at every redraw: a new one would lose an unfold whose toggle event
    // was still on its way (a frame's redraw right after the tap folded it again).
    if (sayLang !== lang()) sayBox = null; // its words are the old language's: built anew
    sayLang = lang();
    sayBox ??= h("details.say", { id: "say" }, h("summary", {}, t("sxSay")),
      h("span.choices", { role: "group", "aria-label": t("sxSay") },
        CODES.map((code) => h("button", { type: "button", id: `say-${code}`, onclick: () => { sayBox.open = false; say(code); } }, codeText(code)))));
    return sayBox;
  }

  // Sent, not asked: the `said` frame that comes back to every player at the table says
  // it was said; a refusal is an error frame (unnumbered, no match_id).
  let saying = 0;
  function say(code) {
    saying = Date.now();
    notice = "";
    app.socket.send({ type: "say", match_id: state().matchId, code });
  }

  // The banner's "…is enough if your game takes less than 2:20" holds until then: drawn
  // again at that moment, without the clause (it stayed, already false, until news came).
  let tieTimer = null;
  function tieLapsesIn() {
    const { game, opponent } = state();
    if (!game || OVER.has(game.status) || !opponent || !OVER.has(opponent.status)) return null;
    const { tieTime } = scoreToBeat({ theirScore: opponent.score, theirMs: theirElapsed(game, opponent), myMs: myElapsed(game) });
    return tieTime === null ? null : tieTime - myElapsed(game);
  }

  function draw() {
    clear(el, banner(), saidLine(), sayButtons(), notice ? h("p.error", { role: "alert" }, notice) : null);
    clearTimeout(tieTimer);
    const lapses = tieLapsesIn();
    if (lapses !== null) tieTimer = setTimeout(draw, lapses + 50);
  }

  const stop = app.listen((m) => {
    if (m.type === "error" && Date.now() - saying < 5000 && ["rate_limited", "not_seated"].includes(m.code)) {
      notice = m.code === "rate_limited" ? t("sxTooFast") : problemText(m);
      announce(notice);
      return draw();
    }
    if (m.match_id !== state().matchId) return;
    if (m.type === "said") {
      said = { playerId: m.player_id, code: m.code, at: Date.now() };
      const { me, nameOf } = state();
      if (m.player_id !== me.id) announce(t("sxSaid", { name: nameOf(m.player_id) || t("opponent"), text: codeText(m.code) }));
      clearTimeout(timer);
      timer = setTimeout(draw, SAID_FOR_MS + 50);
    }
    if (m.type === "game_over" && m.player_id !== state().me.id) {
      // Said once, when it happens; the banner then stays while my game goes on.
      queueMicrotask(() => { const b = banner(); if (b) announce(b.textContent); });
    }
    queueMicrotask(draw); // after the table has applied the frame
  });
  draw();
  return { el, draw, destroy() { stop(); clearTimeout(timer); clearTimeout(tieTimer); } };
}

// ---- friend requests (friends are mutual): REST /me/friend-requests, news as `friend` frames

export const requestsApi = {
  list: () => call("GET", "/me/friend-requests"),
  ask: (name) => call("POST", "/me/friend-requests", { name }),
  accept: (id) => call("POST", `/me/friend-requests/${id}/accept`),
  decline: (id) => call("POST", `/me/friend-requests/${id}/decline`),
  withdraw: (id) => call("DELETE", `/me/friend-requests/${id}`),
};

// The news of a `friend` frame in words (for the live region): null for news told otherwise.
export function friendNewsText(m) {
  if (m.change === "requested") return t("sxRequestFrom", { name: m.name });
  if (m.change === "accepted") return t("sxAccepted", { name: m.name });
  return null;
}

// In the lobby's Friends panel: requests waiting for my answer (Accept / Decline) and
// mine waiting for theirs (Cancel request). `changed` reloads the lobby's lists (a
// friend added); news of a request (`friend` frames) redraws here and is said aloud.
export function friendRequests(app, changed) {
  addStyle();
  const el = h("div.requests", { id: "friend-requests" });
  let found = { incoming: [], outgoing: [] };
  let notice = "";

  // Only the newest answer is drawn: a request sent just before an accept arrives may
  // answer after the accept's own refresh, and showed "Request sent" beside the friend.
  // A list that failed to load is asked again (a second later, a few times) rather than
  // left as it was. A player the lobby lists as a friend has no request row: the friend
  // list, loaded just before, is the newer truth, and both change in the same frame.
  let asked = 0;
  let friendIds = new Set();
  async function refresh(friends = null, tries = 3) {
    const turn = ++asked;
    if (friends) friendIds = new Set(friends.map((f) => f.id));
    let next = null;
    try {
      next = await requestsApi.list();
    } catch {
      if (turn === asked && tries > 1) setTimeout(() => turn === asked && refresh(null, tries - 1), 1000);
      return;
    }
    if (turn !== asked) return;
    found = next;
    draw();
  }

  function friendsAre(friends) {
    friendIds = new Set(friends.map((f) => f.id));
    draw();
  }

  async function answer(call, text) {
    try {
      await call();
      notice = text;
    } catch (problem) {
      notice = problemText(problem);
    }
    announce(notice);
    changed();
  }

  function draw() {
    const notFriend = (r) => !friendIds.has(r.id);
    const incoming = found.incoming.filter(notFriend);
    const outgoing = found.outgoing.filter(notFriend);
    clear(el, incoming.length || outgoing.length ? h("h3", { id: "requests-h" }, t("sxRequests")) : null,
      incoming.length || outgoing.length ? h("ul.list.request-list", { "aria-labelledby": "requests-h" },
        incoming.map((r) => h("li", { id: `request-from-${r.id}` },
          h("span.grow", {}, t("sxRequestFrom", { name: r.name })),
          h("span.answers",
            h("button.primary", { type: "button", id: `accept-friend-${r.id}`, "aria-label": `${t("accept")} — ${r.name}`,
              onclick: () => answer(() => requestsApi.accept(r.id), t("sxNowFriends", { name: r.name })) }, t("accept")),
            h("button", { type: "button", id: `decline-friend-${r.id}`, "aria-label": `${t("decline")} — ${r.name}`,
              onclick: () => answer(() => requestsApi.decline(r.id), t("sxDeclined")) }, t("decline"))))),
        outgoing.map((r) => h("li", { id: `request-to-${r.id}` },
          h("span.grow.muted", {}, t("sxRequestTo", { name: r.name })),
          h("button", { type: "button", id: `withdraw-friend-${r.id}`, "aria-label": `${t("sxCancelRequest")} — ${r.name}`,
            onclick: () => answer(() => requestsApi.withdraw(r.id), "") }, t("sxCancelRequest"))))) : null,
      notice ? h("p.note", { role: "status" }, notice) : null);
  }

  let placed = false; // once in the page, gone from it later: the lobby has gone
  const stop = app.listen((m) => {
    placed ||= el.isConnected;
    if (placed && !el.isConnected) return stop();
    if (m.type !== "friend") return;
    const text = friendNewsText(m);
    if (text) announce(text);
    changed();
  });
  // Whether I have asked them already (the lobby's search shows it instead of Add friend).
  const askedAlready = (id) => found.outgoing.some((r) => r.id === id);
  return { el, refresh, friendsAre, askedAlready, destroy: stop };
}
