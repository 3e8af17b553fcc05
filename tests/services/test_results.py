"""finish_match: winner by duel score then time, ratings once per rated match, history,
records that the engine's record parser accepts and replays to the stored score."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import games as repo
from app.db.models import Game, Match, Player, Rating
from app.engine.game import replay
from app.engine.record import record_from_json
from app.errors import Conflict, InvalidInput, NotFound
from app.rooms.store import Totals
from app.scoring.play import ScoredGame
from app.services import players, results, tables
from app.services.settled import MatchSettled, match_settled
from tests.support.play import play


async def seated_match(session: AsyncSession, *, rated: bool = True, suits: int = 1,
                       preset: str = "duel") -> tuple[Player, Player, Match]:
    ann = (await players.create_player(session=session, name="Ann", secret_key="k")).player
    bob = (await players.create_player(session=session, name="Bob", secret_key="k")).player
    view = await tables.create_table(
        session=session, owner=ann, ttl_seconds=3600,
        settings=tables.TableSettings(rated=rated, suits=suits, preset=preset),
    )
    seated = await tables.seat_player(session=session, table=view.table, player=bob)
    assert seated.match is not None
    return ann, bob, seated.match


async def games(session: AsyncSession, match: Match) -> tuple[int, int]:
    first, second = await repo.games_of_match(session, match_id=match.id)
    return first.id, second.id


async def test_a_match_is_not_finished_while_a_game_is_playing(session: AsyncSession) -> None:
    _, _, match = await seated_match(session)
    first, _ = await games(session, match)
    await play(session, game_id=first, steps=3)
    with pytest.raises(Conflict) as raised:
        await results.finish_match(session=session, match_id=match.id)
    assert raised.value.code == "match_not_over"
    result = await results.match_result(session=session, match_id=match.id)
    assert result.deal_number is None and result.suits is None and not result.over


async def test_a_game_in_play_shows_the_totals_of_its_last_logged_action(
    session: AsyncSession,
) -> None:
    # The action log's writers leave the games row alone while a game is played
    # (revision 0009): the result reads the totals off the last logged action instead.
    _, _, match = await seated_match(session)
    first, second = await games(session, match)
    score = await play(session, game_id=first, steps=4, end=None, time_used_ms=4_321)
    row = await session.get(Game, first)
    assert row is not None and (row.score, row.actions_count, row.time_used_ms) == (0, 0, 0)
    shown = {g.game_id: g for g in (await results.match_result(
        session=session, match_id=match.id)).games}
    assert (shown[first].score, shown[first].actions, shown[first].time_used_ms) == (
        score, 4, 4_321)
    assert (shown[second].score, shown[second].actions) == (0, 0)  # nothing logged yet
    # Once ended, the row's totals (the end writes them), whatever the log says.
    await session.execute(update(Game).where(Game.id == first).values(
        status="finished", score=score - 1, actions_count=4, time_used_ms=5_000))
    await session.commit()
    shown = {g.game_id: g for g in (await results.match_result(
        session=session, match_id=match.id)).games}
    assert (shown[first].score, shown[first].time_used_ms) == (score - 1, 5_000)


async def test_a_game_logged_before_0009_shows_its_rows_totals(session: AsyncSession) -> None:
    # Rows logged before the revision carry no totals: the games row kept them then.
    _, _, match = await seated_match(session)
    first, _ = await games(session, match)
    await repo.append_action(session, game_id=first, seq=1, action={"op": "deal"})
    row = await session.get(Game, first)
    assert row is not None
    await repo.update_progress(session, game=row, progress=Totals(-1, 1, 900))
    await session.commit()
    assert await repo.live_totals(session, row) == Totals(-1, 1, 900)


async def test_higher_duel_score_wins_and_ratings_move_once(session: AsyncSession) -> None:
    ann, bob, match = await seated_match(session, suits=2)
    first, second = await games(session, match)
    # Ann plays for a while; Bob gives up after two and a half minutes and 20 actions:
    # both games are rated enough (docs/ratings.md).
    ann_points = await play(session, game_id=first, steps=26, end="finished",
                            time_used_ms=180_000)
    bob_points = await play(session, game_id=second, steps=20, pick=1, end="finished",
                            time_used_ms=150_000)
    assert ann_points != bob_points
    result = await results.finish_match(session=session, match_id=match.id)
    winner = ann if ann_points > bob_points else bob
    assert result.match.winner_id == winner.id and result.match.status == "finished"
    assert result.over and result.deal_number == match.deal_number and result.suits == 2
    by_player = {g.player_id: g for g in result.games}
    assert by_player[winner.id].rating_after > by_player[winner.id].rating_before  # type: ignore[operator]
    loser = bob if winner is ann else ann
    assert by_player[loser.id].rating_after < by_player[loser.id].rating_before  # type: ignore[operator]
    rating = await session.get(Rating, (winner.id, 2))
    assert rating is not None and rating.games == 1
    again = await results.finish_match(session=session, match_id=match.id)  # idempotent
    await session.refresh(rating)
    assert rating.games == 1
    assert again.match.winner_id == winner.id


async def test_equal_scores_go_to_the_shorter_time_then_draw(session: AsyncSession) -> None:
    ann, bob, match = await seated_match(session)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=0, end="timed_out", time_used_ms=900_000)
    await play(session, game_id=second, steps=0, end="finished", time_used_ms=30_000)
    result = await results.finish_match(session=session, match_id=match.id)
    assert result.match.winner_id == bob.id

    view = await tables.agree_new_game(session=session, table_id=match.table_id, player=ann)
    view = await tables.agree_new_game(session=session, table_id=match.table_id, player=bob)
    assert view.match is not None and view.match.id != match.id
    first, second = await games(session, view.match)
    await play(session, game_id=first, steps=0, time_used_ms=5_000)
    await play(session, game_id=second, steps=0, time_used_ms=5_000)
    draw = await results.finish_match(session=session, match_id=view.match.id)
    assert draw.match.winner_id is None and draw.match.status == "finished"
    info = await players.player_info(session=session, player_id=ann.id)
    assert (info.games_played, info.won, info.lost, info.drawn, info.streak) == (2, 0, 1, 1, 0)


async def test_a_finish_after_one_move_in_seconds_moves_no_rating(
        session: AsyncSession) -> None:
    ann, bob, match = await seated_match(session)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=9, end="finished", time_used_ms=59_999)
    await play(session, game_id=second, steps=1, end="finished", time_used_ms=4_000)
    result = await results.finish_match(session=session, match_id=match.id)
    assert result.match.winner_id is not None  # a result all the same
    assert all(g.rating_before is None and g.rating_after is None for g in result.games)
    assert await session.get(Rating, (ann.id, 1)) is None
    assert await session.get(Rating, (bob.id, 1)) is None


async def timed_match(session: AsyncSession, time_limit_seconds: int) -> tuple[int, int, Match]:
    ann = (await players.create_player(session=session, name="Ann", secret_key="k")).player
    bob = (await players.create_player(session=session, name="Bob", secret_key="k")).player
    view = await tables.create_table(
        session=session, owner=ann, ttl_seconds=3600,
        settings=tables.TableSettings(time_limit_seconds=time_limit_seconds))
    seated = await tables.seat_player(session=session, table=view.table, player=bob)
    assert seated.match is not None
    return ann.id, bob.id, seated.match


async def test_a_double_finish_after_70_seconds_and_15_actions_moves_no_rating(
        session: AsyncSession) -> None:
    """Issue 24: both players pressed Finish after ~15 actions in 70 s, and ratings moved
    by ±162. Neither game is a real attempt: the result stands, the ratings do not move,
    and the result says so the way a game too short to count does (no rating values)."""
    ann, bob, match = await seated_match(session)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=15, end="finished", time_used_ms=70_000)
    await play(session, game_id=second, steps=15, pick=1, end="finished",
               time_used_ms=69_000)
    result = await results.finish_match(session=session, match_id=match.id)
    assert result.match.status == "finished" and result.match.rated
    assert all(g.rating_before is None and g.rating_after is None for g in result.games)
    assert await session.get(Rating, (ann.id, 1)) is None
    assert await session.get(Rating, (bob.id, 1)) is None


@pytest.mark.parametrize("limit,steps,used_ms,rated", [
    (900, 20, 120_000, True),  # a real attempt given up: 20 actions and 2 minutes
    (900, 19, 600_000, False),  # long, but hardly played
    (900, 200, 119_000, False),  # many actions, under 2 minutes
    (60, 20, 30_000, True),  # a one-minute clock: half of it is enough
    (60, 20, 29_000, False),
])
async def test_a_finished_game_must_last_enough_actions_and_time_to_be_rated(
        session: AsyncSession, limit: int, steps: int, used_ms: int, rated: bool) -> None:
    ann, _, match = await timed_match(session, limit)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=steps, end="finished", time_used_ms=used_ms)
    await play(session, game_id=second, steps=0, end="timed_out", time_used_ms=limit * 1000)
    result = await results.finish_match(session=session, match_id=match.id)
    assert all((g.rating_after is not None) is rated for g in result.games), result.games
    assert (await session.get(Rating, (ann, 1)) is not None) is rated


async def test_a_game_played_to_its_end_is_rated_however_short(session: AsyncSession) -> None:
    """The clock running out is the game's natural end: rated, whatever was played."""
    ann, _, match = await timed_match(session, 60)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=3, end="timed_out", time_used_ms=60_000)
    await play(session, game_id=second, steps=0, end="timed_out", time_used_ms=60_000)
    result = await results.finish_match(session=session, match_id=match.id)
    assert all(g.rating_after is not None for g in result.games)
    assert await session.get(Rating, (ann, 1)) is not None


async def test_a_player_who_did_not_start_loses_rated(session: AsyncSession) -> None:
    ann, bob, match = await seated_match(session)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=20, end="finished", time_used_ms=150_000)
    game = await session.get(Game, second)  # Bob never opened his game: timed out unopened
    assert game is not None
    await repo.finish_game(session, game=game, status="timed_out",
                           progress=Totals(0, 0, 300_000))
    await session.commit()
    result = await results.finish_match(session=session, match_id=match.id)
    assert result.match.winner_id == ann.id
    by_player = {g.player_id: g for g in result.games}
    assert by_player[bob.id].status == "did_not_start"
    assert by_player[bob.id].rating_after < by_player[bob.id].rating_before  # type: ignore[operator]
    assert by_player[ann.id].rating_after > by_player[ann.id].rating_before  # type: ignore[operator]


async def test_unrated_matches_leave_ratings_alone(session: AsyncSession) -> None:
    ann, _, match = await seated_match(session, rated=False)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=4)
    await play(session, game_id=second, steps=0)
    result = await results.finish_match(session=session, match_id=match.id)
    assert all(g.rating_before is None for g in result.games)
    assert await session.get(Rating, (ann.id, 1)) is None


async def test_the_record_replays_to_the_stored_score(session: AsyncSession) -> None:
    _, _, match = await seated_match(session, preset="classic", suits=2)
    first, second = await games(session, match)
    with pytest.raises(Conflict):
        await results.record_of_game(session=session, game_id=first)
    await play(session, game_id=first, steps=12, pick=1)
    await play(session, game_id=second, steps=2)
    data = await results.record_of_game(session=session, game_id=first)
    assert data["rules"] == {"preset": "classic", "suits": 2}
    assert data["deal"] == {"number": match.deal_number}
    record = record_from_json(data)
    scored = ScoredGame.start(record.start)
    for action in record.actions:
        scored, _ = scored.play(action)
    stored = (await repo.load_game(session, game_id=first))
    assert stored is not None
    assert len(record.actions) == 12 == stored.game.actions_count
    assert scored.points == stored.game.score
    assert replay(record.start, record.actions) == scored.state
    with pytest.raises(NotFound):
        await results.record_of_game(session=session, game_id=999_999)


async def test_a_stored_layout_is_used_for_rebuild_and_record(session: AsyncSession) -> None:
    from app.engine.deal import deal
    from app.engine.layout import state_to_layout
    from app.engine.rules import preset

    _, _, match = await seated_match(session)
    layout = state_to_layout(deal(12345, preset("duel", 1)))
    await session.execute(update(Match).where(Match.id == match.id)
                          .values(layout=layout, deal_number=None, generator_version=None))
    await session.commit()
    await session.refresh(match)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=3)
    await play(session, game_id=second, steps=0)
    data = await results.record_of_game(session=session, game_id=first)
    assert "deal" not in data and data["layout"] == layout
    assert len(record_from_json(data).actions) == 3


async def test_history_pages_and_date_filters(session: AsyncSession) -> None:
    ann, bob, match = await seated_match(session)
    for _ in range(3):
        first, second = await games(session, match)
        await play(session, game_id=first, steps=2)
        await play(session, game_id=second, steps=0)
        await results.finish_match(session=session, match_id=match.id)
        await tables.agree_new_game(session=session, table_id=match.table_id, player=ann)
        view = await tables.agree_new_game(session=session, table_id=match.table_id,
                                           player=bob)
        assert view.match is not None
        match = view.match
    page = await results.history(session=session, player_id=ann.id, page=1, page_size=2)
    assert page.total == 3 and len(page.items) == 2
    assert page.items[0].match_id > page.items[1].match_id
    assert page.items[0].opponent_name == "Bob"
    rest = await results.history(session=session, player_id=ann.id, page=2, page_size=2)
    assert len(rest.items) == 1
    future = datetime.now(UTC) + timedelta(days=1)
    assert (await results.history(session=session, player_id=bob.id, page=1, page_size=10,
                                  since=future)).total == 0
    naive_past = datetime(2000, 1, 1)
    assert (await results.history(session=session, player_id=bob.id, page=1, page_size=10,
                                  since=naive_past, until=future)).total == 3
    with pytest.raises(InvalidInput):
        await results.history(session=session, player_id=bob.id, page=1, page_size=10,
                              since=future, until=naive_past)
    with pytest.raises(NotFound):
        await results.history(session=session, player_id=999_999, page=1, page_size=10)


async def test_a_settlement_is_published_once_to_every_listener(session: AsyncSession) -> None:
    ann, bob, match = await seated_match(session, suits=2)
    first, second = await games(session, match)
    ann_points = await play(session, game_id=first, steps=4, end="finished",
                            time_used_ms=50_000)
    await play(session, game_id=second, steps=0, end="timed_out", time_used_ms=900_000)
    heard: list[MatchSettled] = []
    after: list[int] = []

    async def within(event: MatchSettled, own: AsyncSession) -> None:
        heard.append(event)

    async def later(event: MatchSettled) -> None:
        after.append(event.match_id)

    unsubscribe = [match_settled.subscribe(within), match_settled.subscribe_after_commit(later)]
    try:
        result = await results.finish_match(session=session, match_id=match.id)
        await results.finish_match(session=session, match_id=match.id)
    finally:
        for undo in unsubscribe:
            undo()
    assert after == [match.id] and len(heard) == 1
    event = heard[0]
    assert (event.match_id, event.rated, event.suits) == (match.id, True, 2)
    assert event.winner_id == result.match.winner_id
    assert [(s.player_id, s.game_id, s.seat, s.status) for s in event.seats] == [
        (ann.id, first, 0, "finished"), (bob.id, second, 1, "timed_out")]
    assert event.seats[0].duel_points == ann_points and event.seats[1].time_used_ms == 900_000


async def test_a_failing_listener_keeps_nothing_of_the_settlement(session: AsyncSession) -> None:
    ann, _, match = await seated_match(session)
    match_id, ann_id = match.id, ann.id
    first, second = await games(session, match)
    await play(session, game_id=first, steps=3, end="timed_out", time_used_ms=900_000)
    await play(session, game_id=second, steps=0, end="timed_out", time_used_ms=900_000)

    async def broken(event: MatchSettled, own: AsyncSession) -> None:
        raise RuntimeError("listener down")

    unsubscribe = match_settled.subscribe(broken)
    try:
        with pytest.raises(RuntimeError):
            await results.finish_match(session=session, match_id=match_id)
    finally:
        unsubscribe()
    await session.rollback()
    stored = await session.execute(
        select(Match.status, Match.winner_id).where(Match.id == match_id))
    assert tuple(stored.one()) == ("playing", None)
    assert await session.get(Rating, (ann_id, 1)) is None  # ratings rolled back too
    settled = await results.finish_match(session=session, match_id=match_id)  # a retry
    assert settled.match.status == "finished"
    rating = await session.get(Rating, (ann_id, 1))
    assert rating is not None and rating.games == 1


async def test_an_after_commit_listener_cannot_undo_the_settlement(
    session: AsyncSession,
) -> None:
    _, _, match = await seated_match(session)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=2)
    await play(session, game_id=second, steps=0)

    async def broken(event: MatchSettled) -> None:
        raise RuntimeError("notifier down")

    unsubscribe = match_settled.subscribe_after_commit(broken)
    try:
        result = await results.finish_match(session=session, match_id=match.id)
    finally:
        unsubscribe()
    assert result.match.status == "finished"


async def test_finishing_twice_at_once_rates_once(
    session: AsyncSession, session_factory: async_sessionmaker[AsyncSession]
) -> None:
    ann, bob, match = await seated_match(session)
    first, second = await games(session, match)
    await play(session, game_id=first, steps=3, end="timed_out", time_used_ms=900_000)
    await play(session, game_id=second, steps=0, end="timed_out", time_used_ms=900_000)

    async def finish() -> int | None:
        async with session_factory() as own:
            result = await results.finish_match(session=own, match_id=match.id)
            return result.match.winner_id

    winners = await asyncio.gather(finish(), finish(), finish())
    assert len(set(winners)) == 1
    for player in (ann, bob):
        rating = await session.get(Rating, (player.id, 1))
        assert rating is not None
        await session.refresh(rating)
        assert rating.games == 1
