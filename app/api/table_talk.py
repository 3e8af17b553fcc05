"""Canned messages at a duel table (issue 25): ``say`` in, ``said`` out.

A fixed code, never free text: nothing to moderate, and each client says it in its
player's language. Only a player of the match may say one, and it goes to the players'
own channels, never to the match's (spectators follow that one). An ignore either way
keeps it from the other player (app/services/friends.py). One bucket per player, not per
connection, so that more tabs do not say more: ``say_burst`` at once, then one per
``say_every_seconds``; beyond it, ``rate_limited`` (the connection stays open).
"""

from __future__ import annotations

from starlette.datastructures import State

from app.api.protocol_social import Say
from app.api.ratelimit import TokenBuckets
from app.messaging import channels
from app.rooms import frames
from app.rooms.errors import NotSeated, SayTooOften
from app.rooms.layer import Rooms
from app.services.friends import ignored_among
from app.settings import Settings


def buckets(settings: Settings) -> TokenBuckets:
    return TokenBuckets(burst=settings.say_burst, per_minute=60.0 / settings.say_every_seconds)


async def say(message: Say, state: State, *, player_id: int) -> None:
    rooms: Rooms = state.rooms
    live = await rooms.duels.match(message.match_id)
    players = [seat.player_id for seat in live.games]
    if player_id not in players:
        raise NotSeated("only the players of a match say something at its table")
    wait = state.say_buckets.take(str(player_id))
    if wait > 0:
        raise SayTooOften(f"one message per {state.settings.say_every_seconds:g} s after "
                          f"{state.settings.say_burst}; retry in {wait:.1f} s",
                          retry_after=wait)
    others = [other for other in players if other != player_id]
    async with state.sessions() as session:
        kept_from = await ignored_among(session=session, player_id=player_id, of=others)
    frame = frames.said(message.match_id, player_id, message.code)
    for to in players:  # the sender too: their other tabs show what was said
        if to not in kept_from:
            await rooms.pubsub.publish(channels.player(to), frame)
