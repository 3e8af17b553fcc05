"""Play a stored game through the engine and the action log, as the live layer will."""

from collections.abc import Iterable

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import games as repo
from app.engine.actions import Action, action_from_json
from app.engine.game import apply, legal_actions
from app.engine.state import GameState
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


def legal_walk(start: GameState, picks: Iterable[int]) -> tuple[GameState, list[Action]]:
    """A random legal game from ``start``, applied one action at a time: where it ends
    and its actions. Each pick indexes the legal actions (modulo); it stops where none is
    left or the game is won."""
    state, played = start, []
    for pick in picks:
        actions = legal_actions(state)
        if not actions or state.won:
            break
        action = actions[pick % len(actions)]
        state, _ = apply(state, action)
        played.append(action)
    return state, played
