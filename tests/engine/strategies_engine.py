"""Hypothesis strategies for positions and games (imported by the property tests)."""

from hypothesis import assume
from hypothesis import strategies as st

from app.engine.actions import Action, Deal, Flip, Move, Undo
from app.engine.cards import KING, make_card, suits_in_play
from app.engine.deal import deal
from app.engine.layout import LayoutError, build_state
from app.engine.rules import Rules, preset, with_options
from app.engine.state import GameState

RULES = st.builds(
    lambda name, suits, overrides: with_options(preset(name, suits), **overrides),
    st.sampled_from(["classic", "relaxed", "duel"]),
    st.sampled_from([1, 2, 4]),
    st.fixed_dictionaries(
        {},
        optional={
            "flip": st.sampled_from(["auto", "manual"]),
            "deal_over_empty": st.booleans(),
            "undo": st.sampled_from(["all", "moves"]),
        },
    ),
)


@st.composite
def chunky_start(draw: st.DrawFn, rules: Rules) -> GameState:
    """A start whose cards lie in long same-suit runs, so play completes runs often.

    Each K→A run is cut into a few chunks; the chunks are shuffled, the first cards form
    the stock and each other chunk lands on a drawn column, the top chunk face up.
    """
    suits = suits_in_play(rules.suits)
    chunks: list[list[int]] = []
    for suit in [suit for suit in suits for _ in range(8 // len(suits))]:
        cards = [make_card(rank, suit) for rank in range(KING, 0, -1)]
        cuts = sorted(draw(st.sets(st.integers(1, 12), min_size=1, max_size=3)))
        for lo, hi in zip([0, *cuts], [*cuts, 13], strict=True):
            chunks.append(cards[lo:hi])
    order = draw(st.permutations(range(len(chunks))))
    faces = [face for index in order for face in chunks[index]]
    stock_size = 10 * draw(st.integers(0, 5))
    stock = faces[:stock_size]
    placed: list[list[list[int]]] = [[] for _ in range(10)]
    used = 0
    for index in order:
        chunk = chunks[index]
        if used < stock_size:  # this chunk is (partly) in the stock
            taken = min(len(chunk), stock_size - used)
            used += taken
            chunk = chunk[taken:]
            if not chunk:
                continue
        placed[draw(st.integers(0, 9))].append(chunk)
    piles = []
    for column in placed:
        pile = [face for chunk in column for face in chunk]
        top = len(column[-1]) if column else 0
        if draw(st.booleans()):  # sometimes fewer cards face up than the top chunk
            top = draw(st.integers(0 if rules.manual_flip else min(1, top), top))
        piles.append((pile[: len(pile) - top], pile[len(pile) - top :]))
    try:
        return build_state(rules, piles, stock, [])
    except LayoutError:
        assume(False)
        raise


@st.composite
def start_states(draw: st.DrawFn) -> GameState:
    rules = draw(RULES)
    if draw(st.booleans()):
        return deal(draw(st.integers(1, 10**9)), rules)
    return draw(chunky_start(rules))


def broad_actions() -> list[Action]:
    """Every well-formed action with values a little outside the legal ranges too."""
    columns = range(-1, 11)
    moves: list[Action] = [
        Move(src, dst, count) for src in columns for dst in columns for count in range(0, 15)
    ]
    return [*moves, *(Flip(col) for col in columns), Deal(), Undo()]


ANY_ACTION = st.one_of(
    st.builds(Move, st.integers(-2, 11), st.integers(-2, 11), st.integers(-1, 15)),
    st.builds(Flip, st.integers(-2, 11)),
    st.just(Deal()),
    st.just(Undo()),
)
