"""The one seq and duplicate rule (app/rooms/seat_rule.py): every verdict, each mode's
differences, the rules it replaced (kept here as oracles), and a seat driven by it."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rooms.seat_rule import (
    ACCEPT,
    DUEL,
    DUPLICATE,
    SOLO,
    Answered,
    Refuse,
    SeqRule,
    Verdict,
    again,
    judge,
)
from app.wire.duel import Ack
from tests.support.frames import a_view, an_ack

CODES = {"seq_taken", "game_over", "not_opened", "bad_seq", "stale_seq"}


def code_of(verdict: Verdict) -> str:
    assert isinstance(verdict, Refuse), verdict
    return verdict.code


# ------------------------------------------------------------------ each verdict


@pytest.mark.parametrize("rule", [DUEL, SOLO], ids=lambda r: r.name)
def test_the_next_seq_of_a_game_in_progress_is_accepted(rule: SeqRule) -> None:
    assert judge(rule, 1, 0, None, True, None) is ACCEPT
    assert judge(rule, 8, 7, 7, True, None) is ACCEPT


@pytest.mark.parametrize("rule", [DUEL, SOLO], ids=lambda r: r.name)
def test_the_seq_of_the_cached_answer_is_a_duplicate(rule: SeqRule) -> None:
    assert judge(rule, 7, 7, 7, True, None, lambda seq: True) is DUPLICATE
    # Before anything else: a resend of the step that won (or ended) the game too.
    assert judge(rule, 7, 7, 7, True, "won", lambda seq: True) is DUPLICATE
    # An assistance's answer is cached under the seq asked, its steps went further.
    assert judge(rule, 5, 9, 5, True, None, lambda seq: True) is DUPLICATE


def test_a_duel_refuses_the_last_seq_with_another_action_as_taken() -> None:
    asked: list[int] = []

    def same(seq: int) -> bool:
        asked.append(seq)
        return False

    verdict = judge(DUEL, 7, 7, 7, True, None, same)
    assert code_of(verdict) == "seq_taken" and asked == [7]
    assert isinstance(verdict, Refuse) and "another tab or device" in verdict.message


def test_solo_answers_any_repeat_of_its_cached_seq_with_the_cached_answer() -> None:
    def never(seq: int) -> bool:
        raise AssertionError("solo does not compare actions")

    assert judge(SOLO, 7, 7, 7, True, None, never) is DUPLICATE


def test_a_duel_answers_the_last_applied_seq_from_its_log_without_a_cache() -> None:
    assert judge(DUEL, 7, 7, None, True, None, lambda seq: True) is DUPLICATE
    assert judge(DUEL, 7, 7, 3, True, "won", lambda seq: True) is DUPLICATE
    assert code_of(judge(DUEL, 7, 7, None, True, None, lambda seq: False)) == "seq_taken"
    # Nothing applied yet: seq 0 is no step of the log.
    assert code_of(judge(DUEL, 0, 0, None, True, None, lambda seq: True)) == "bad_seq"


def test_solo_without_its_cache_finds_the_last_applied_seq_stale() -> None:
    verdict = judge(SOLO, 7, 7, None, True, None)
    assert verdict == Refuse("stale_seq", "seq 7 is older than the last applied (7)")


def test_a_finish_resent_to_a_rebuilt_duel_copy_is_a_duplicate() -> None:
    # The finish took seq 8 but is not logged: the copy knows 7 actions and the end.
    assert judge(DUEL, 8, 7, 7, True, "finished", lambda seq: seq == 8) is DUPLICATE
    # Another action with that seq: the game is over, as for any other.
    assert code_of(judge(DUEL, 8, 7, 7, True, "finished", lambda seq: False)) == "game_over"
    assert code_of(judge(DUEL, 8, 7, 7, True, "won", lambda seq: True)) == "game_over"
    assert code_of(judge(SOLO, 8, 7, 7, True, "finished", lambda seq: True)) == "game_over"


@pytest.mark.parametrize("rule", [DUEL, SOLO], ids=lambda r: r.name)
def test_refusals_in_their_documented_order_and_words(rule: SeqRule) -> None:
    assert judge(rule, 8, 7, None, True, "abandoned") == Refuse(
        "game_over", "the game is over (abandoned)")
    assert judge(rule, 1, 0, None, False, "no_show") == Refuse(
        "game_over", "the game is over (no_show)")  # over beats unopened
    assert judge(rule, 1, 0, None, False, None) == Refuse(
        "not_opened", "open the game before playing")
    assert judge(rule, 9, 7, None, False, None) == Refuse(
        "not_opened", "open the game before playing")  # unopened beats a bad seq
    assert judge(rule, 9, 7, 7, True, None) == Refuse("bad_seq", "the next seq is 8")
    assert judge(rule, 0, 7, 7, True, None) == Refuse("bad_seq", "the next seq is 8")
    assert judge(rule, -3, 0, None, True, None) == Refuse("bad_seq", "the next seq is 1")
    assert judge(rule, 3, 7, 7, True, None) == Refuse(
        "stale_seq", "seq 3 is older than the last applied (7)")


def test_the_answer_again_is_the_same_answer_marked_as_a_duplicate() -> None:
    answer = an_ack(4)
    cached = Answered(4, answer)
    assert cached.again() == an_ack(4, duplicate=True) == again(answer)
    assert answer.duplicate is False  # the cached answer itself is left as it was
    assert cached.again() is not cached.again()


# ------------------------------------------------------------------ the rules it replaced

# As written before the rule was shared (duel_core.act with _seq_refusal, and
# SoloPlay._refuse), reduced to their verdicts: the oracles of "behaviour unchanged".


def old_duel(seq: int, applied: int, last_seq: int | None, opened: bool, ended: str | None,
             same: bool) -> str:
    if (last_seq is not None and seq == last_seq) or (applied > 0 and seq == applied):
        return "duplicate" if same else "seq_taken"
    if seq != applied + 1 or not opened or ended is not None:
        if seq == applied + 1 and ended == "finished" and same:
            return "duplicate"
        if ended is not None:
            return "game_over"
        if not opened:
            return "not_opened"
        if seq < 1:
            return "bad_seq"
        if seq < applied:
            return "stale_seq"
        if seq > applied + 1:
            return "bad_seq"
    return "accept"


def old_solo(seq: int, applied: int, last_seq: int | None, opened: bool,
             ended: str | None) -> str:
    if last_seq is not None and seq == last_seq:
        return "duplicate"
    if ended is not None:
        return "game_over"
    if not opened:
        return "not_opened"
    next_seq = applied + 1
    if seq < next_seq:
        return "stale_seq"
    if seq > next_seq:
        return "bad_seq"
    return "accept"


def name_of(verdict: Verdict) -> str:
    if verdict is ACCEPT:
        return "accept"
    if verdict is DUPLICATE:
        return "duplicate"
    return code_of(verdict)


ENDS = st.sampled_from([None, "won", "finished", "timed_out", "abandoned", "expired"])


@settings(max_examples=500)
@given(st.integers(-2, 12), st.integers(0, 10), st.none() | st.integers(0, 12),
       st.booleans(), ENDS, st.booleans())
def test_the_duel_rule_is_the_one_it_replaced(seq: int, applied: int, last_seq: int | None,
                                              opened: bool, ended: str | None,
                                              same: bool) -> None:
    verdict = judge(DUEL, seq, applied, last_seq, opened, ended, lambda asked: same)
    assert name_of(verdict) == old_duel(seq, applied, last_seq, opened, ended, same)


@settings(max_examples=500)
@given(st.integers(-2, 12), st.integers(0, 10), st.none() | st.integers(0, 12),
       st.booleans(), ENDS)
def test_the_solo_rule_is_the_one_it_replaced(seq: int, applied: int, last_seq: int | None,
                                              opened: bool, ended: str | None) -> None:
    verdict = judge(SOLO, seq, applied, last_seq, opened, ended)
    expected = old_solo(seq, applied, last_seq, opened, ended)
    if seq < 1 and expected == "stale_seq":
        # The one difference, on seqs the protocol refuses before any rule (``Seq``,
        # ge=1): solo called them stale, duels bad; the shared rule says bad_seq.
        expected = "bad_seq"
    assert name_of(verdict) == expected


# ------------------------------------------------------------------ a seat driven by it


@dataclass
class ModelSeat:
    """A seat reduced to what the rule reads: its log of actions, its cached answer."""

    rule: SeqRule
    log: list[int] = field(default_factory=list)
    cached: Answered | None = None
    opened: bool = True
    ended: str | None = None

    def command(self, seq: int, action: int) -> tuple[Verdict, Ack | None]:
        verdict = judge(self.rule, seq, len(self.log),
                        None if self.cached is None else self.cached.seq, self.opened,
                        self.ended, lambda asked: self.log[asked - 1] == action)
        if verdict is ACCEPT:
            self.log.append(action)
            answer = an_ack(seq, view=a_view(stock=action, actions=len(self.log)))
            self.cached = Answered(seq, answer)
            if action == 0:
                self.ended = "won"
            return verdict, answer
        if verdict is DUPLICATE:
            assert self.cached is not None or self.rule.answers_from_log
            if self.cached is None:
                return verdict, None
            answered = self.cached.again()
            assert isinstance(answered, Ack)
            return verdict, answered
        return verdict, None


COMMANDS = st.lists(st.tuples(st.integers(-1, 14), st.integers(0, 3)), max_size=40)


@settings(max_examples=300)
@given(st.sampled_from([DUEL, SOLO]), COMMANDS, st.booleans())
def test_a_seat_applies_each_seq_once_and_only_in_order(
        rule: SeqRule, commands: list[tuple[int, int]], opened: bool) -> None:
    seat = ModelSeat(rule, opened=opened)
    answers: dict[int, Ack] = {}
    for seq, action in commands:
        before = (list(seat.log), seat.cached, seat.ended)
        verdict, answer = seat.command(seq, action)
        if verdict is ACCEPT:
            # Accepted: exactly the next seq of an opened game in progress, applied once.
            assert opened and before[2] is None and seq == len(before[0]) + 1 not in answers
            assert seat.log == [*before[0], action]
            assert answer is not None
            answers[seq] = answer
            continue
        # Anything else changes nothing.
        assert (seat.log, seat.cached, seat.ended) == before
        if verdict is DUPLICATE:
            # Only a seq answered before; the cached answer again, marked.
            assert seq in answers
            if answer is not None:
                assert answer == msgspec.structs.replace(answers[seq], duplicate=True)
            if rule.checks_action:
                assert seat.log[seq - 1] == action
        else:
            assert code_of(verdict) in CODES
            assert isinstance(verdict, Refuse) and verdict.message
            if code_of(verdict) == "seq_taken":
                assert rule.checks_action and seq in answers
                assert seat.log[seq - 1] != action
    assert len(seat.log) == len(answers) and sorted(answers) == list(
        range(1, len(seat.log) + 1))


@settings(max_examples=200)
@given(st.sampled_from([DUEL, SOLO]), st.lists(st.integers(1, 3), min_size=1, max_size=20))
def test_a_resend_of_every_step_just_taken_gets_the_same_answer(
        rule: SeqRule, actions: list[int]) -> None:
    seat = ModelSeat(rule)
    for seq, action in enumerate(actions, start=1):
        verdict, answer = seat.command(seq, action)
        assert verdict is ACCEPT and answer is not None
        again_verdict, repeat = seat.command(seq, action)
        assert again_verdict is DUPLICATE and repeat == again(answer)
        other, _ = seat.command(seq, action + 1)  # another tab's action, same seq
        assert name_of(other) == ("seq_taken" if rule.checks_action else "duplicate")
        # The seq before, once passed: stale (in a duel it is no longer the last one).
        if seq > 1:
            assert code_of(seat.command(seq - 1, action)[0]) == "stale_seq"
