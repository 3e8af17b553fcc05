"""The browser's game session (web/js/session.js): one game's state, seq, the action in
flight and what each answer does (docs/protocol.md, "Sequence numbers"), shared by the
duel and solo tables. Pure logic, run in the page: answers are given by a fake `send`."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.web.conftest import LiveServer

# The module and a few helpers in the page: a view named by a number, a snapshot, an ack,
# a reject, and a `send` that records the seqs it was given and answers from a list.
PRELUDE = """
const s = await import('/js/session.js');
const view = (n) => ({ columns: [], stock: 0, removed: [], actions: n, tag: n });
const snapshot = (seq, matchId = 1) => ({ match_id: matchId, view: view(seq), score: 500 - seq,
  seq, status: 'playing', time_left_ms: 60000 });
const ack = (seq, extra = {}) => ({ type: 'ack', seq, view: view(seq), score: 500 - seq,
  status: 'playing',
  time_left_ms: 50000, events: [{ kind: 'moved', from: 1, to: 2, cards: ['9h'] }], ...extra });
const reject = (code, nextSeq) => ({ type: 'reject', code, message: code, next_seq: nextSeq,
  view: view(nextSeq - 1), score: 501 - nextSeq, status: 'playing' });
const sender = (answers) => {
  const sent = [];
  const send = async (seq) => { sent.push(seq); return answers.shift(); };
  return { sent, send };
};
const move = { op: 'move', from: 1, to: 2, count: 1 };
"""


def run(page: Page, server: LiveServer, body: str) -> Any:
    page.goto(server.url + "/css/app.css")  # any page of the app: the module's origin
    return page.evaluate(f"(async () => {{ {PRELUDE}\n{body} }})()")


def test_my_acks_in_order_move_the_seq_and_take_the_state(page: Page,
                                                          static_server: LiveServer) -> None:
    out = run(page, static_server, """
      const resynced = [];
      const game = s.gameSession(s.DUEL, { onResync: (v) => resynced.push(v.tag), now: () => 7 });
      game.start(snapshot(3), { rules: 'r' });
      const first = sender([ack(4)]);
      const one = await game.play(move, first.send);
      const second = sender([ack(5)]);
      let during = null;
      const pending = game.play(move, async (seq) => {
        during = game.pending;
        return second.send(seq);
      });
      const two = await pending;
      return { sent: [...first.sent, ...second.sent], one: [one.ok, one.applied],
               two: [two.ok, two.applied], during, after: game.pending, seq: game.game.seq,
               tag: game.game.view.tag, left: game.game.left,
               rules: game.game.rules, at: game.game.at, next: game.nextSeq, resynced };
    """)
    assert out["sent"] == [4, 5]
    assert out["one"] == [True, "applied"] and out["two"] == [True, "applied"]
    assert out["during"] == {"seq": 5, "action": {"op": "move", "from": 1, "to": 2, "count": 1}}
    assert out["after"] is None
    assert (out["seq"], out["tag"], out["left"], out["next"]) == (5, 5, 50000, 6)
    assert out["rules"] == "r" and out["at"] == 7  # the screen's own fields are kept
    assert out["resynced"] == []


def test_another_tabs_ack_is_news_only_when_past_my_seq(page: Page,
                                                        static_server: LiveServer) -> None:
    out = run(page, static_server, """
      const game = s.gameSession(s.DUEL);
      game.start(snapshot(3));
      const past = game.news(ack(4));
      const again = game.news(ack(4));        // the same step heard twice: not applied twice
      const older = game.news(ack(2));
      const seq = game.game.seq;
      const first = sender([ack(5)]);          // my next move goes out on the next seq
      await game.play(move, first.send);
      return { past, again, older, seq, sent: first.sent, now: game.game.seq,
               action: s.actionOf(ack(4).events) };
    """)
    assert (out["past"], out["again"], out["older"]) == ("applied", "stale", "stale")
    assert out["seq"] == 4 and out["sent"] == [5] and out["now"] == 5
    assert out["action"] == {"op": "move", "from": 1, "to": 2, "count": 1}


def test_a_reject_replaces_the_state_with_the_servers(page: Page,
                                                      static_server: LiveServer) -> None:
    out = run(page, static_server, """
      const resynced = [];
      const game = s.gameSession(s.DUEL, { onResync: (v) => resynced.push(v.tag) });
      game.start(snapshot(3));
      const answers = sender([{ ...reject('seq_taken', 6), view: view(5), score: 111 }]);
      const done = await game.play(move, answers.send);
      return { done: [done.ok, done.code, done.reason], seq: game.game.seq, next: game.nextSeq,
               score: game.game.score, tag: game.game.view.tag, resynced, pending: game.pending };
    """)
    assert out["done"] == [False, "seq_taken", "seq_taken"]
    assert (out["seq"], out["next"], out["score"], out["tag"]) == (5, 6, 111, 5)
    assert out["resynced"] == [5] and out["pending"] is None


def test_an_outdated_seq_is_tried_once_more_on_the_fresh_view_in_a_duel_only(
        page: Page, static_server: LiveServer) -> None:
    out = run(page, static_server, """
      const duel = s.gameSession(s.DUEL);
      duel.start(snapshot(3));
      const d = sender([reject('stale_seq', 6), ack(6)]);
      const dd = await duel.play(move, d.send);
      const seqAfterRetry = duel.game.seq;
      const twice = sender([reject('bad_seq', 8), reject('bad_seq', 9)]);
      const tt = await duel.play(move, twice.send);   // tried once more, not forever
      const solo = s.gameSession(s.SOLO);
      solo.start({ ...snapshot(3), elapsed_ms: 1000, auto_complete: false });
      const o = sender([{ ...reject('stale_seq', 6), type: 'solo_reject' }]);
      const oo = await solo.play(move, o.send);
      return { duel: [d.sent, dd.ok, seqAfterRetry],
               twice: [twice.sent, tt.ok, tt.code, duel.game.seq],
               solo: [o.sent, oo.ok, oo.code, solo.game.seq] };
    """)
    assert out["duel"] == [[4, 6], True, 6]
    assert out["twice"] == [[7, 8], False, "bad_seq", 8]
    assert out["solo"] == [[4], False, "stale_seq", 5]


def test_a_duplicate_is_already_here_and_a_stale_ack_changes_nothing(
        page: Page, static_server: LiveServer) -> None:
    out = run(page, static_server, """
      const game = s.gameSession(s.DUEL);
      game.start(snapshot(3));
      const dup = game.ack(ack(3, { duplicate: true, view: view(99) }));
      const tagAfterDup = game.game.view.tag;
      game.news(ack(5));                       // another tab went further meanwhile
      const answers = sender([ack(4)]);        // my answer, older than what is here now
      const late = await game.play(move, answers.send);
      const resent = game.ack(ack(6, { duplicate: true }));   // a resend's answer I never saw
      return { dup, tagAfterDup, late: [late.ok, late.applied], seq: game.game.seq, resent };
    """)
    assert out["dup"] == "duplicate" and out["tagAfterDup"] == 3
    assert out["late"] == [True, "stale"]
    assert out["resent"] == "applied" and out["seq"] == 6


def test_a_snapshot_starts_over_and_an_answer_for_an_old_game_is_dropped(
        page: Page, static_server: LiveServer) -> None:
    out = run(page, static_server, """
      const game = s.gameSession(s.DUEL);
      const before = await game.play(move, async () => ack(1));      // nothing opened yet
      game.start(snapshot(3));
      let release;
      const held = new Promise((resolve) => { release = resolve; });
      const flying = game.play(move, () => held);
      game.start(snapshot(10, 2));             // another match at the table meanwhile
      release(ack(4));
      const done = await flying;
      const over = s.gameSession(s.DUEL);
      over.start({ ...snapshot(2), status: 'timed_out' });
      const refused = await over.play(move, async () => ack(3));
      return { before: [before.ok, before.code], done: done.ok, seq: game.game.seq,
               pending: game.pending,
               refused: [refused.ok, refused.code], isOver: over.over };
    """)
    assert out["before"] == [False, "game_over"]
    assert out["done"] is None and out["seq"] == 10 and out["pending"] is None
    assert out["refused"] == [False, "game_over"] and out["isOver"] is True


def test_a_refusal_in_flight_is_still_told_after_a_snapshot_of_the_same_game(
        page: Page, static_server: LiveServer) -> None:
    # A tab that opened its game twice (its subscription asked for again) gets a second
    # snapshot while its action is on the way: the refusal that answers the action is
    # still the player's to hear (the two-tabs race of tests/web/test_flows.py).
    out = run(page, static_server, """
      const game = s.gameSession(s.DUEL);
      game.start(snapshot(3));
      let release;
      const held = new Promise((resolve) => { release = resolve; });
      const flying = game.play(move, () => held);
      game.start(snapshot(4));                 // the same match, one step on (news)
      const during = game.pending;
      release({ ...reject('seq_taken', 5), view: view(4) });
      const done = await flying;
      return { during, done: [done.ok, done.code], seq: game.game.seq, pending: game.pending };
    """)
    assert out["during"] == {"seq": 4, "action": {"op": "move", "from": 1, "to": 2, "count": 1}}
    assert out["done"] == [False, "seq_taken"]
    assert out["seq"] == 4 and out["pending"] is None


def test_solo_frames_take_the_solo_clock_and_assists_the_whole_state(
        page: Page, static_server: LiveServer) -> None:
    out = run(page, static_server, """
      const game = s.gameSession(s.SOLO, { now: () => 42 });
      game.start({ ...snapshot(0), elapsed_ms: 1000, auto_complete: false }, { rescues: 0 });
      const answers = sender([
        { ...ack(1), type: 'solo_ack', elapsed_ms: 4100, auto_complete: true }]);
      const done = await game.play(move, answers.send);
      const a = { ok: done.ok, seq: game.game.seq, elapsed: game.game.elapsed,
                  auto: game.game.auto };
      game.take({ seq: 6, view: view(6), score: 440, status: 'playing', elapsed_ms: 9000,
                  auto_complete: false }, { rescues: 1 });
      game.resync({ next_seq: 7, status: 'won', score: 999 });
      return { ...a, after: [game.game.seq, game.game.elapsed, game.game.rescues, game.game.status,
                            game.game.score, game.over, game.game.at] };
    """)
    assert (out["ok"], out["seq"], out["elapsed"], out["auto"]) == (True, 1, 4100, True)
    assert out["after"] == [6, 9000, 1, "won", 999, True, 42]


def test_a_deadline_reads_the_same_to_the_millisecond_or_the_second(
        page: Page, static_server: LiveServer) -> None:
    """A tester saw "open it before 06:53" on one side and "has until 06:54" on the other:
    the REST deadline (06:53:59.7) and the frame's (06:54:00) are one moment."""
    shown = run(page, static_server, """
const { clockTime } = await import('/js/dom.js');
document.documentElement.lang = 'en-GB';
return [clockTime('2026-12-05T06:53:59.700Z'), clockTime('2026-12-05T06:54:00Z'),
        clockTime(Date.parse('2026-12-05T06:53:59.700Z')), clockTime('2026-12-05T06:53:30Z')];
""")
    assert shown[0] == shown[1] == shown[2] != shown[3]
