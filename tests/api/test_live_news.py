"""A lobby's table and an invitation go out typed (``app/wire/news.py``), byte for byte the
REST answer they were sent as before (``TableOut``, ``InviteOut``: their JSON): the same
fields in the same order, the same dates, and they read back through Redis as
themselves."""

from __future__ import annotations

from datetime import UTC, date, datetime

import msgspec
import pytest

from app.api.live_news import invitation, lobby_table
from app.api.schemas import InviteOut, InviteTableOut, SeatOut, TableOut
from app.rooms import frames
from app.wire.frames import encode, read_channel
from app.wire.news import Invitation, LobbyTable
from tests.support.frames import sent


def a_table(*, created: datetime, daily: date | None = None, match: int | None = None
            ) -> TableOut:
    seats = [SeatOut(seat=0, player_id=1, name="ann", wants_new_game=False)]
    if match is not None:
        seats.append(SeatOut(seat=1, player_id=2, name="bob", wants_new_game=True))
    return TableOut(id=3, owner_id=1, owner_name="ann", preset="duel", suits=2,
                    time_limit_seconds=600, level="any", public=True, rated=False,
                    difficulty="hard", daily_date=daily, quick=match is None,
                    status="open" if match is None else "playing", created_at=created,
                    expires_at=None if match else created, seats=seats, match_id=match,
                    match_status=None if match is None else "playing")


MOMENTS = [datetime(2026, 5, 6, 7, 8, 9), datetime(2026, 5, 6, 7, 8, 9, 120_000),
           datetime(2026, 5, 6, 7, 8, 9, 5, tzinfo=UTC)]


@pytest.mark.parametrize("created", MOMENTS, ids=str)
def test_a_table_is_sent_as_its_rest_answer(created: datetime) -> None:
    for table in (a_table(created=created), a_table(created=created, daily=date(2026, 5, 6),
                                                    match=12)):
        typed = lobby_table(table)
        assert encode(typed) == table.model_dump_json().encode()
        frame = sent(frames.lobby("seat_taken", typed))
        assert read_channel(encode(frame)) == frame


@pytest.mark.parametrize("created", MOMENTS, ids=str)
def test_an_invitation_is_sent_as_its_rest_answer(created: datetime) -> None:
    game = InviteTableOut(preset="duel", suits=1, time_limit_seconds=300, rated=True)
    for invitee, table in ((7, None), (None, a_table(created=created))):
        invite = InviteOut(code="abc", table_id=3, inviter_id=1, inviter_name="ann",
                           invitee_id=invitee, invitee_name="eve" if invitee else None,
                           kind="direct" if invitee else "link", status="pending",
                           created_at=created, expires_at=created, table=table, game=game)
        typed = invitation(invite)
        assert encode(typed) == invite.model_dump_json().encode()
        frame = sent(frames.invite(typed))
        assert read_channel(encode(frame)) == frame


@pytest.mark.parametrize(("wire", "rest"), [(LobbyTable, TableOut), (Invitation, InviteOut)])
def test_the_wire_parts_have_the_rest_answers_fields(wire: type[msgspec.Struct],
                                                     rest: type[TableOut | InviteOut]
                                                     ) -> None:
    assert list(wire.__struct_fields__) == list(rest.model_fields)
