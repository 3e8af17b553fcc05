"""Every frame builder makes a frame that reads back as its type (app/wire/): the
builders are the one place frames are made, the types the one place they are defined."""

import msgspec
import pytest

from app.engine.actions import Deal, Flip, Move, Undo
from app.engine.layout import state_from_layout, state_to_layout
from app.engine.rules import Rules, preset, rules_from_json, with_options
from app.rooms import duel_core as core
from app.rooms import frames
from app.rooms.match import MatchState
from app.rooms.seat_log import rebuild_seat
from app.rooms.store import StoredGame
from app.wire.base import Frame
from app.wire.frames import checked, decode, encode
from tests.support.duel_layouts import RULES, WINNING_LINE, near_finished_layout
from tests.support.frames import a_lobby_table, an_invitation, assert_is_its_type

T0 = 5_000.0


def unopened(*, start_by: float | None = None) -> MatchState:
    rules = rules_from_json(RULES)
    start = state_from_layout(rules, near_finished_layout())
    seats = tuple(rebuild_seat(StoredGame(10 + p, p, name=f"P{p}"), start, 300)
                  for p in (1, 2))
    return MatchState(7, rules, {"number": 5, "generator": 1, "difficulty": "easy"}, start, seats,
                 start_by=start_by)


def a_match() -> MatchState:
    match = unopened()
    for player in (1, 2):
        step = core.open_seat(match, player, T0)
        assert step is not None
        match = step.match
    return match


def built() -> list[Frame]:
    match = a_match()
    step = core.act(match, 1, 1, WINNING_LINE[0], T0 + 2)
    ack = step.reply
    assert ack is not None
    match = step.match
    seat = match.seat_of(1)
    finished = core.act(match, 2, 1, {"op": "finish"}, T0 + 3)
    over = finished.effects[-1]
    assert isinstance(over, core.GameEnded)
    settled = core.settled(core.act(finished.match, 1, 2, {"op": "finish"}, T0 + 4).match,
                           2, {1: (1500.0, 1480.0), 2: (1500.0, 1520.0)}, T0 + 5)
    assert settled.result is not None
    assert [r.name for r in settled.result.results] == ["P1", "P2"]
    return [
        ack,
        core.act(match, 1, 9, WINNING_LINE[1], T0).reply or frames.PONG,
        frames.snapshot(7, rules_from_json(RULES), seat, role="player", now=T0 + 2,
                        opponent=frames.progress(match.seat_of(2), T0 + 2, True)),
        frames.progress_event(7, seat, T0 + 2, False),
        frames.watch(7, seat, ack),
        over.frame,
        *no_show(),
        settled.result,
        core.replay(settled, 1),
        frames.hint(7, Flip(1), "flip a card"),
        frames.welcome(version=1, player_id=1, stream="abc", last_event=0, resumed=False),
        frames.presence(2, True),
        frames.lobby("table_created", a_lobby_table(3)),
        frames.invite(an_invitation(3)),
        frames.said(7, 1, "good_luck"),
        frames.friend("requested", 2, "bob"),
    ]


def no_show() -> list[Frame]:
    """A seat waiting to be opened (its start deadline shown), then ended unopened."""
    waiting = unopened(start_by=T0 + 60)
    progress = frames.progress_event(7, waiting.seat_of(2), T0, True, waiting.start_deadline)
    assert progress.progress.start_deadline == "1970-01-01T01:24:20Z"
    assert progress.progress.at_ms == round(T0 * 1000)  # when its clock was read
    late = core.expiry_due(waiting, 2, T0 + 60)
    assert late is not None and isinstance(late.effects[-1], core.GameEnded)
    assert late.effects[-1].frame.reason == "did_not_start"
    return [progress, late.effects[-1].frame]


@pytest.mark.parametrize("frame", built(), ids=lambda f: type(f).__name__)
def test_a_built_frame_is_its_type_exactly(frame: Frame) -> None:
    assert_is_its_type(frame)


def test_frames_without_a_game_are_their_types_too() -> None:
    for frame in (frames.error("bad_json", "x"), frames.PONG,
                  frames.resume_result(resumed=True, stream="s", last_event=3)):
        assert decode(checked(frame)) == frame


def test_a_frame_with_a_value_outside_its_type_is_refused() -> None:
    """What the test suite's check (``ws_validate_frames``) catches: a status that is no
    status, a number that is a string."""
    seat = a_match().seat_of(1)
    bad = frames.game_over(7, seat.evolve(end_reason="won", ended_at=T0), T0)
    with pytest.raises(AssertionError, match="reason"):
        assert_is_its_type(msgspec.structs.replace(bad, reason="lost"))
    with pytest.raises(AssertionError, match="score"):
        assert_is_its_type(msgspec.structs.replace(bad, score="12"))


def test_a_rebuilt_ack_is_sent_as_the_ack_it_was() -> None:
    ack = core.act(a_match(), 1, 1, WINNING_LINE[0], T0 + 2).reply
    assert ack is not None
    rebuilt = frames.RebuiltAck(**msgspec.structs.asdict(ack))
    assert encode(rebuilt) == encode(ack)  # tagged "ack" like any other
    assert type(rebuilt.as_sent()) is type(ack) and rebuilt.as_sent() == ack


def test_the_match_result_reveals_the_solo_deal_that_plays_it_again() -> None:
    """The deal as the SQL store keeps it (``app.services.deals.stored_deal``), in its
    order: nothing else of what is stored."""
    play = {"number": 123_456, "suits": 2, "solvable_only": True}
    stored = {"difficulty": None, "number": 9, "generator": 1, "play": play}
    start = unopened().start
    result = frames.match_result(7, [], None, {}, {**stored, "private": "kept"}, start)
    assert encode(result.deal) == msgspec.json.encode(stored)
    assert_is_its_type(result)


def test_a_deal_of_a_layout_is_revealed_as_its_layout() -> None:
    stored = {"difficulty": None, "layout": near_finished_layout()}
    result = frames.match_result(7, [], None, {}, stored, unopened().start)
    assert encode(result.deal) == msgspec.json.encode(stored)
    random_deal = {"difficulty": "hard", "number": 12, "generator": None}
    assert encode(frames.revealed_deal(random_deal, unopened().start)) == (
        msgspec.json.encode(random_deal))


def test_the_replay_record_is_the_rule_books_record() -> None:
    """The record a replay sends, byte for byte the rule book's JSON form it was as a dict."""
    match = unopened()
    moves = tuple(WINNING_LINE[:5])
    replay = frames.replay(7, 1, match.rules, match.start, moves)
    as_dict = {"rules": match.rules.to_json(), "layout": state_to_layout(match.start),
               "moves": list(moves)}
    assert encode(replay.record) == msgspec.json.encode(as_dict)
    assert_is_its_type(replay)


@pytest.mark.parametrize("rules", [
    preset("duel", 4), preset("classic", 1), preset("relaxed", 2),
    with_options(preset("duel", 1), undo="all", scoring="windows"),
    with_options(preset("classic", 2), flip="manual", deal_over_empty=True),
], ids=lambda rules: str(rules.to_json()))
def test_the_rules_are_sent_as_the_rule_books_rules_object(rules: Rules) -> None:
    assert encode(frames.game_rules(rules)) == msgspec.json.encode(rules.to_json())


@pytest.mark.parametrize("action", [Move(3, 7, 2), Move(0, 9), Deal(), Flip(4), Undo()],
                         ids=repr)
def test_an_action_is_sent_in_the_rule_books_form(action: Move | Deal | Flip | Undo) -> None:
    said = frames.played(action)
    assert encode(said) == msgspec.json.encode(action.to_json())
    assert frames.logged_actions([action.to_json()]) == [said]
