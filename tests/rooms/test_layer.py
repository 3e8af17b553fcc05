"""The rooms runtime: restoring unfinished matches at start, retried on its clock."""

from app.messaging.pubsub import MemoryPubSub
from app.rooms.layer import build_rooms
from app.rooms.store import MemoryStore, StoreError
from tests.support.clock import FakeClock, settle


class AwayTwice(MemoryStore):
    """A database that is not ready for the first two asks."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    async def unfinished_match_ids(self, player_id: int | None = None) -> list[int]:
        self.asked += 1
        if self.asked <= 2:
            raise StoreError("the database is not up yet")
        return await super().unfinished_match_ids(player_id)


async def no_player(token: str) -> int:
    raise AssertionError("nobody signs in here")


async def no_friends(player_id: int) -> list[int]:
    return []


async def test_restoring_retries_on_its_clock_until_the_store_answers() -> None:
    clock, store = FakeClock(), AwayTwice()
    rooms = build_rooms(pubsub=MemoryPubSub(), store=store, authenticate=no_player,
                        friends_of=no_friends, clock=clock)
    rooms.start_restoring(retry_seconds=5)
    await settle()
    assert store.asked == 1
    await clock.advance(4.9)
    assert store.asked == 1  # no retry before its time
    await clock.advance(0.1)
    assert store.asked == 2
    await clock.advance(5)
    assert store.asked == 3 and rooms._restorer is not None and rooms._restorer.done()
    await clock.advance(60)
    assert store.asked == 3  # restored: no more asks
    await rooms.close()
