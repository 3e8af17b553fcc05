"""The pure duel core: match values in, (match, writes, effects, reply) out. No event loop,
no store, no clock: every test here is a plain function."""

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.layout import state_from_layout
from app.engine.rules import rules_from_json
from app.rooms import duel_core as core
from app.rooms.duel_core import (
    ACKED,
    Acked,
    AppendAction,
    Arm,
    Disarm,
    EndGame,
    GameEnded,
    ProgressChanged,
    StartGame,
)
from app.rooms.errors import NotSeated, ReplayNotReady, SpectateRefused
from app.rooms.match import MatchState
from app.rooms.modes import SOLO_MODE, UNTIMED
from app.rooms.seat_log import rebuild_seat
from app.rooms.store import StoredAction, StoredGame
from app.wire.duel import Ack, Reject
from app.wire.solo import SoloAck
from tests.support.duel_layouts import RULES, WINNING_LINE, near_finished_layout
from tests.support.frames import as_json
from tests.support.frames import kind as frame_kind

ANN, BOB, EVE = 1, 2, 3
T0 = 1_000.0


def again_of(reply: object) -> object:
    """An answer as a resend gets it again: the same, marked as a duplicate."""
    assert isinstance(reply, Ack | SoloAck)
    return msgspec.structs.replace(reply, duplicate=True)


def new_match(time_limit: float = 600.0, expires_at: float | None = None) -> MatchState:
    rules = rules_from_json(RULES)
    start = state_from_layout(rules, near_finished_layout())
    seats = tuple(rebuild_seat(StoredGame(100 + p, p), start, time_limit)
                  for p in (ANN, BOB))
    return MatchState(10, rules, {"layout": near_finished_layout()}, start, seats,
                 expires_at=expires_at)


def opened(match: MatchState, *players: int, at: float = T0) -> MatchState:
    for player in players:
        step = core.open_seat(match, player, at)
        assert step is not None
        match = step.match
    return match


def played(match: MatchState, player: int, actions: list[dict[str, Any]], at: float) -> MatchState:
    for action in actions:
        step = core.act(match, player, match.seat_of(player).seq + 1, action, at)
        assert step.reply is not None and frame_kind(step.reply) == "ack", step.reply
        match = step.match
    return match


@settings(max_examples=200)
@given(st.floats(-50.0, 700.0, allow_nan=False), st.booleans())
def test_the_clock_of_a_game_in_progress_reads_as_the_general_rule_says(
        after: float, ended: bool) -> None:
    # elapsed_s works out a game in progress on its own (three times per action): it
    # must agree with elapsed_if_ended, the rule for every game.
    seat = opened(new_match(), ANN).seat_of(ANN)
    if ended:
        seat = seat.evolve(ended_at=T0 + 30, end_reason="finished")
    now = T0 + after
    assert seat.elapsed_s(now) == seat.elapsed_if_ended(seat.end_reason, seat.ended_at or now)
    assert 0.0 <= seat.elapsed_s(now) <= seat.time_limit_s


def test_opening_starts_the_clock_once_and_arms_the_timer() -> None:
    match = new_match()
    step = core.open_seat(match, ANN, T0)
    assert step is not None
    assert step.writes == (StartGame(101, T0),)
    assert step.effects == (Arm(ANN), ProgressChanged(ANN, ended=False))
    seat = step.match.seat_of(ANN)
    assert seat.started_at == T0 and seat.status == "playing"
    assert match.seat_of(ANN).started_at is None  # the value before is untouched
    assert core.open_seat(step.match, ANN, T0 + 5) is None  # a second open changes nothing


def test_an_action_is_logged_before_it_counts_and_fans_out_after() -> None:
    match = opened(new_match(), ANN)
    step = core.act(match, ANN, 1, WINNING_LINE[0], T0 + 3)
    [write] = step.writes
    assert isinstance(write, AppendAction)
    assert (write.game_id, write.seq, write.action, write.at) == (101, 1, WINNING_LINE[0], T0 + 3)
    assert write.progress.time_used_ms == 3000 and write.progress.actions == 1
    assert step.reply is not None and frame_kind(step.reply) == "ack" and step.reply.seq == 1
    assert step.effects == (ACKED,)  # the fan-out reads the ack from the seat
    assert step.match.seat_of(ANN).seq == 1 and step.match.seat_of(ANN).last_ack is step.reply


def test_the_same_seq_again_is_the_same_answer_marked_duplicate() -> None:
    match = opened(new_match(), ANN)
    first = core.act(match, ANN, 1, WINNING_LINE[0], T0 + 1)
    again = core.act(first.match, ANN, 1, WINNING_LINE[0], T0 + 2)
    assert again.writes == () and again.effects == ()
    assert again.reply == again_of(first.reply)


def test_another_action_with_a_seq_just_answered_is_refused_as_taken() -> None:
    # Two tabs of Ann send seq 1 at the same instant with different actions: the first
    # is applied, the second is refused with the fresh view, never applied on top.
    match = opened(new_match(), ANN)
    first = core.act(match, ANN, 1, WINNING_LINE[0], T0 + 1)
    for other in (WINNING_LINE[1], {"op": "finish"}, {"op": "move", "from": 9}):
        second = core.act(first.match, ANN, 1, other, T0 + 2)
        assert second.writes == () and second.effects == () and second.match is first.match
        assert second.reply is not None and frame_kind(second.reply) == "reject"
        assert second.reply.code == "seq_taken" and second.reply.next_seq == 2
        assert first.reply is not None and second.reply.view == first.reply.view
    # A finish sent twice is a resend: the same answer; a move with its seq is taken.
    done = core.act(first.match, ANN, 2, {"op": "finish"}, T0 + 3)
    assert core.act(done.match, ANN, 2, {"op": "finish"}, T0 + 4).reply == again_of(done.reply)
    taken = core.act(done.match, ANN, 2, WINNING_LINE[1], T0 + 4).reply
    assert taken is not None and taken.code == "seq_taken"


def test_a_seq_answered_before_a_rebuild_is_fanned_out_again() -> None:
    # The process that logged seq 2 may have died before telling anyone: the rebuilt
    # copy answers the retry as a duplicate and shows the step to spectators and the
    # opponent again; a second retry is a plain duplicate.
    log = [StoredAction(i, a, T0 + i) for i, a in enumerate(WINNING_LINE[:2], start=1)]
    match = new_match()
    match = match.with_seat(rebuild_seat(StoredGame(101, ANN, started_at=T0, actions=log),
                                              match.start, 600))
    step = core.act(match, ANN, 2, WINNING_LINE[1], T0 + 5)
    assert step.writes == ()
    assert step.reply is not None and step.reply.duplicate and step.reply.seq == 2
    assert step.effects == (ACKED,)
    last_ack = step.match.seat_of(ANN).last_ack
    assert last_ack is not None and step.reply == again_of(last_ack)
    again = core.act(step.match, ANN, 2, WINNING_LINE[1], T0 + 6)
    assert again.effects == () and again.reply == step.reply


def test_a_won_game_answered_again_after_a_rebuild_is_announced_again() -> None:
    log = [StoredAction(i, a, T0 + i) for i, a in enumerate(WINNING_LINE, start=1)]
    match = new_match()
    match = match.with_seat(rebuild_seat(StoredGame(101, ANN, started_at=T0, actions=log),
                                              match.start, 600))
    step = core.act(match, ANN, len(WINNING_LINE), WINNING_LINE[-1], T0 + 50)
    assert [type(e) for e in step.effects] == [Acked, GameEnded]
    assert step.match.seat_of(ANN).over  # the fan-out tells other processes it ended


def test_a_finish_sent_again_after_a_rebuild_is_answered_as_a_duplicate() -> None:
    # The process that stored the finish died before its ack went out; the client sends
    # the same finish (same seq) to the copy rebuilt from the log, where the finish, not
    # being logged, left no seq behind: the answer is the finish's ack again, not a refusal.
    log = [StoredAction(i, a, T0 + i) for i, a in enumerate(WINNING_LINE[:2], start=1)]
    stored = StoredGame(101, ANN, started_at=T0, ended_at=T0 + 9, end_reason="finished",
                        actions=log)
    match = new_match()
    match = match.with_seat(rebuild_seat(stored, match.start, 600))
    step = core.act(match, ANN, 3, {"op": "finish"}, T0 + 20)
    assert step.writes == ()
    assert step.reply is not None and frame_kind(step.reply) == "ack", step.reply
    assert step.reply.duplicate and step.reply.seq == 3
    assert step.reply.status == "finished"
    assert [type(e) for e in step.effects] == [Acked, GameEnded]  # announced again
    again = core.act(step.match, ANN, 3, {"op": "finish"}, T0 + 21)
    assert again.effects == () and again.reply == step.reply
    # Anything else at that seq, or a later one, is still refused: the game is over.
    other = core.act(match, ANN, 3, WINNING_LINE[2], T0 + 20).reply
    later = core.act(match, ANN, 4, {"op": "finish"}, T0 + 20).reply
    assert other is not None and other.code == "game_over"
    assert later is not None and later.code == "game_over"


@pytest.mark.parametrize(("seq", "code"), [(4, "bad_seq"), (1, "stale_seq"), (0, "bad_seq")])
def test_seqs_out_of_order_are_rejected_with_the_view(seq: int, code: str) -> None:
    match = played(opened(new_match(), ANN), ANN, WINNING_LINE[:2], T0)
    step = core.act(match, ANN, seq, WINNING_LINE[2], T0)
    assert step.writes == () and step.effects == () and step.match is match
    assert step.reply is not None and step.reply.code == code
    assert step.reply.next_seq == 3 and step.reply.view is not None


def test_an_illegal_or_malformed_action_consumes_no_seq() -> None:
    match = opened(new_match(), ANN)
    illegal = core.act(match, ANN, 1, {"op": "move", "from": 4, "to": 5, "count": 1}, T0)
    malformed = core.act(match, ANN, 1, {"op": "jump"}, T0)
    assert illegal.reply is not None and frame_kind(illegal.reply) == "reject"
    assert malformed.reply is not None and malformed.reply.code == "bad_action"
    assert illegal.match is match and malformed.match is match
    assert illegal.writes == malformed.writes == ()


def test_playing_before_opening_or_after_the_end_is_refused() -> None:
    match = new_match()
    assert core.act(match, ANN, 1, WINNING_LINE[0], T0).reply.code == "not_opened"  # type: ignore[union-attr]
    finished = core.act(opened(match, ANN), ANN, 1, {"op": "finish"}, T0).match
    assert core.act(finished, ANN, 2, WINNING_LINE[0], T0).reply.code == "game_over"  # type: ignore[union-attr]


def test_a_finish_must_be_stored_and_ends_the_game_with_an_announcement() -> None:
    match = opened(new_match(), ANN)
    step = core.act(match, ANN, 1, {"op": "finish"}, T0 + 7)
    [write] = step.writes
    assert isinstance(write, EndGame) and write.required and write.reason == "finished"
    assert write.progress.time_used_ms == 7000
    kinds = [type(e) for e in step.effects]
    assert kinds == [Disarm, Acked, GameEnded]
    over = step.effects[-1]
    assert isinstance(over, GameEnded) and over.frame.reason == "finished"
    assert over.frame.elapsed_ms == 7000
    assert step.reply is not None and step.reply.status == "finished"


def test_the_winning_action_ends_the_game_won_with_a_best_effort_end_write() -> None:
    match = played(opened(new_match(), ANN), ANN, WINNING_LINE[:-1], T0 + 10)
    step = core.act(match, ANN, len(WINNING_LINE), WINNING_LINE[-1], T0 + 11)
    append, end = step.writes
    assert isinstance(append, AppendAction) and isinstance(end, EndGame)
    assert end.reason == "won" and not end.required
    assert step.match.seat_of(ANN).status == "won"
    assert isinstance(step.effects[-1], GameEnded)


def test_a_clock_that_ran_out_ends_the_game_at_its_deadline_not_later() -> None:
    match = opened(new_match(time_limit=60), ANN)
    assert core.deadline_due(match, ANN, T0 + 59.9) is None
    step = core.deadline_due(match, ANN, T0 + 500)
    assert step is not None
    [write] = step.writes
    assert isinstance(write, EndGame) and (write.reason, write.at) == ("timed_out", T0 + 60)
    assert write.progress.time_used_ms == 60_000 and not write.required
    assert [type(e) for e in step.effects] == [Disarm, ProgressChanged, GameEnded]
    assert step.effects[1] == ProgressChanged(ANN, ended=True)
    assert core.time_out(step.match, ANN) is None  # the timer, late, finds it over


def test_an_action_after_the_deadline_ends_the_game_at_it_and_is_refused() -> None:
    match = opened(new_match(time_limit=60), ANN)
    step = core.act(match, ANN, 1, WINNING_LINE[0], T0 + 61)
    [write] = step.writes  # the end only: nothing logged
    assert isinstance(write, EndGame) and (write.reason, write.at) == ("timed_out", T0 + 60)
    assert [type(e) for e in step.effects] == [Disarm, ProgressChanged, GameEnded]
    assert step.effects[1] == ProgressChanged(ANN, ended=True)
    assert step.reply is not None and step.reply.code == "game_over"
    assert step.match.seat_of(ANN).seq == 0 and step.match.seat_of(ANN).status == "timed_out"


def test_an_action_just_before_the_deadline_counts() -> None:
    match = opened(new_match(time_limit=60), ANN)
    step = core.act(match, ANN, 1, WINNING_LINE[0], T0 + 59.9)
    assert step.reply is not None and frame_kind(step.reply) == "ack"
    assert step.reply.time_left_ms == 100


def test_an_expired_table_times_out_the_unopened_game_with_the_whole_limit() -> None:
    match = new_match(time_limit=300, expires_at=T0 + 50)
    assert core.expiry_due(match, BOB, T0 + 49) is None
    step = core.expiry_due(match, BOB, T0 + 50)
    assert step is not None
    [write] = step.writes
    assert isinstance(write, EndGame) and write.at == T0 + 50
    assert write.progress.time_used_ms == 300_000
    assert core.open_seat(step.match, BOB, T0 + 51) is None  # opening late starts nothing


def test_spectating_waits_for_my_own_game_and_strangers_for_the_match() -> None:
    match = opened(new_match(), ANN, BOB)
    with pytest.raises(SpectateRefused):
        core.spectated(match, ANN, None)
    with pytest.raises(SpectateRefused):
        core.spectated(match, ANN, ANN)
    mine_over = core.act(match, ANN, 1, {"op": "finish"}, T0).match
    assert core.spectated(mine_over, ANN, None).player_id == BOB
    with pytest.raises(SpectateRefused):
        core.spectated(mine_over, EVE, BOB)
    with pytest.raises(NotSeated):
        core.spectated(mine_over, EVE, EVE)


def test_a_replay_opens_once_the_match_is_over() -> None:
    match = played(opened(new_match(), ANN, BOB), ANN, WINNING_LINE, T0)
    with pytest.raises(ReplayNotReady):
        core.replay(match, ANN)
    over = core.act(match, BOB, 1, {"op": "finish"}, T0).match
    replay = core.replay(over, ANN)
    assert as_json(replay)["record"]["moves"] == WINNING_LINE
    assert as_json(replay)["record"]["layout"]["stock"] == near_finished_layout()["stock"]


def test_the_settled_match_names_the_winner_and_reveals_the_deal() -> None:
    match = played(opened(new_match(), ANN, BOB), ANN, WINNING_LINE, T0)
    match = core.act(match, BOB, 1, {"op": "finish"}, T0 + 1).match
    result = core.settled(match, ANN, {ANN: (1500.0, 1600.0)}, T0 + 2).result
    assert result is not None and result.winner_id == ANN
    assert as_json(result)["deal"] == {"layout": near_finished_layout()}
    assert result.results[0].rating_after == 1600.0
    assert result.results[1].rating_before is None


def test_a_rebuilt_seat_replays_its_log_and_keeps_the_stored_end() -> None:
    rules = rules_from_json(RULES)
    start = state_from_layout(rules, near_finished_layout())
    log = [StoredAction(i, a, T0 + i) for i, a in enumerate(WINNING_LINE, start=1)]
    won = rebuild_seat(StoredGame(1, ANN, started_at=T0, actions=log), start, 600)
    assert won.seq == len(WINNING_LINE) and won.end_reason == "won"
    assert won.ended_at == T0 + len(WINNING_LINE)
    half = StoredGame(2, BOB, started_at=T0, ended_at=T0 + 9, end_reason="finished",
                      actions=log[:3])
    seat = rebuild_seat(half, start, 600)
    assert (seat.seq, seat.status, list(seat.actions)) == (3, "finished", WINNING_LINE[:3])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["act", "finish", "stale", "ahead", "bad"]),
                          st.floats(0, 30)), max_size=25))
def test_whatever_comes_the_seq_counts_what_the_log_holds(
    commands: list[tuple[str, float]],
) -> None:
    """Invariant: a seat's seq is the number of actions appended, and only steps that
    append (or finish) move it; a rejected step changes nothing."""
    match = opened(new_match(), ANN)
    now, appended = T0, 0
    for kind, wait in commands:
        now += wait
        seat = match.seat_of(ANN)
        if kind == "act" and seat.seq < len(WINNING_LINE):
            step = core.act(match, ANN, seat.seq + 1, WINNING_LINE[seat.seq], now)
        elif kind == "finish":
            step = core.act(match, ANN, seat.seq + 1, {"op": "finish"}, now)
        elif kind == "stale":
            step = core.act(match, ANN, max(0, seat.seq - 1), WINNING_LINE[0], now)
        elif kind == "ahead":
            step = core.act(match, ANN, seat.seq + 2, WINNING_LINE[0], now)
        else:
            step = core.act(match, ANN, seat.seq + 1, {"op": "move", "from": 7, "to": 7}, now)
        appended += sum(isinstance(w, AppendAction) for w in step.writes)
        if isinstance(step.reply, Reject):
            assert step.match is match and step.writes == ()
        match = step.match
        assert match.seat_of(ANN).seq == appended == len(match.seat_of(ANN).actions)
        assert match.seat_of(BOB).started_at is None  # Ann's commands never touch Bob


def test_the_hot_path_copies_keep_every_other_field() -> None:
    """``SeatState.played`` and ``MatchState.with_seat`` name the fields one by one (no keyword
    arguments on the hottest path): a field added later must not be dropped by them."""
    match = opened(new_match(expires_at=T0 + 900), ANN).evolve(
        start_by=T0 + 100, result={"type": "x"}, mode=SOLO_MODE)
    seat = match.seat_of(ANN).evolve(last_ack={"seq": 0}, name="Ann", ended_at=None)
    played = seat.played(seat.game, 1, WINNING_LINE[0])
    changed = {"seq", "log_length"}
    for field in msgspec.structs.fields(seat):
        if field.name not in changed:
            assert getattr(played, field.name) is getattr(seat, field.name), field.name
    assert (played.seq, played.log_length, played.actions) == (1, 1, (WINNING_LINE[0],))
    moved = match.with_seat(played)
    for field in msgspec.structs.fields(match):
        if field.name != "seats":
            assert getattr(moved, field.name) is getattr(match, field.name), field.name
    assert moved.seat_of(ANN) is played and moved.seat_of(BOB) is match.seat_of(BOB)


# --------------------------------------------------------------------------- one seat, solo


def solo_match() -> MatchState:
    """A solo or daily game as the core sees it: one seat, no clock that ends it."""
    rules = rules_from_json(RULES)
    start = state_from_layout(rules, near_finished_layout())
    seat = rebuild_seat(StoredGame(100 + ANN, ANN), start, UNTIMED)
    return MatchState(10, rules, {"layout": near_finished_layout()}, start, (seat,),
                      mode=SOLO_MODE)


def test_a_solo_seat_plays_and_wins_through_the_same_step_as_a_duel() -> None:
    match = opened(solo_match(), ANN, at=T0)
    week = 7 * 24 * 3600.0
    match = played(match, ANN, WINNING_LINE[:-1], T0 + week)  # no clock ends it
    step = core.act(match, ANN, len(WINNING_LINE), WINNING_LINE[-1], T0 + week + 1)
    append, end = step.writes
    assert isinstance(append, AppendAction) and isinstance(end, EndGame)
    assert end.reason == "won" and append.seq == len(WINNING_LINE)
    assert step.reply is not None and step.reply.status == "won"
    assert step.reply.time_left_ms is None  # an untimed seat has no time left to show
    assert core.deadline_due(match, ANN, T0 + 10 * week) is None


def test_a_solo_seat_cannot_finish_its_game_and_answers_repeats_from_its_cache() -> None:
    match = opened(solo_match(), ANN)
    finish = core.act(match, ANN, 1, {"op": "finish"}, T0 + 1)
    assert finish.writes == () and finish.reply is not None
    assert (frame_kind(finish.reply), finish.reply.code) == ("reject", "bad_action")
    first = core.act(match, ANN, 1, WINNING_LINE[0], T0 + 1)
    # The solo rule: the cached seq is answered again whatever came with it (a duel
    # refuses another action as seq_taken) ...
    again = core.act(first.match, ANN, 1, WINNING_LINE[1], T0 + 2)
    assert again.writes == () and again.reply == again_of(first.reply)
    # ... and from the cache only: with the cache gone (a rebuild), it is stale.
    forgotten = first.match.with_seat(first.match.seat_of(ANN).evolve(last_ack=None))
    stale = core.act(forgotten, ANN, 1, WINNING_LINE[0], T0 + 2).reply
    assert stale is not None and stale.code == "stale_seq"
