"""Play a stored game through the engine and the action log, as the live layer will."""

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as repo
from app.engine.actions import action_from_json
from app.engine.game import legal_actions
from app.rooms.store import Totals
from app.scoring.play import ScoredGame
from app.services.deals import rebuild


async def play(
    session: AsyncSession, *, game_id: int, steps: int, pick: int = 0,
    end: str | None = "finished", time_used_ms: int = 60_000,
) -> int:
    """Apply ``steps`` legal actions (the ``pick``-th legal one each time), log them, and
    end the game with ``end`` (None: keep playing). Returns the score reached."""
    loaded = await repo.load_game(session, game_id=game_id)
    assert loaded is not None
    scored = ScoredGame.start(rebuild(loaded.match, ()))
    for row in loaded.actions:  # already logged: replay them to reach the score
        scored, _ = scored.play(action_from_json(row.action))
    seq = len(loaded.actions)
    for _ in range(steps):
        options = legal_actions(scored.state)
        action = options[min(pick, len(options) - 1)]
        scored, _ = scored.play(action)
        seq += 1
        # Each row with the game's totals after it, as the live layer logs them; the games
        # row gets them when the game ends.
        await repo.append_action(
            session, game_id=game_id, seq=seq, action=action.to_json(),
            progress=Totals(scored.points, scored.state.actions, time_used_ms))
    progress = Totals(scored.points, scored.state.actions, time_used_ms)
    if end is not None:
        await repo.start_game(session, game=loaded.game)
        await repo.finish_game(session, game=loaded.game, status=end, progress=progress)
    await session.commit()
    return scored.points
