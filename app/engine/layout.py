"""Starting positions from the rule book's layout form, strictly validated, and back."""

from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from app.engine.cards import (
    RUN_LENGTH,
    SUITS,
    Card,
    CardError,
    card_name,
    deck_faces,
    make_card,
    names,
    parse_face,
    parse_suit,
    rank_of,
    suit_of,
    suits_in_play,
)
from app.engine.game import _ends_with_run
from app.engine.rules import Rules
from app.engine.state import COLUMNS, RUNS_TO_WIN, Column, GameState

T = TypeVar("T")


class LayoutError(ValueError):
    """A layout that is not a possible starting position; the message names the problem."""


def parse_items(values: list[Any], parse: Callable[[Any], T], *, where: str,
                fails: type[ValueError], error: type[ValueError]) -> list[T]:
    """Each of the JSON list ``values`` through ``parse``, in order. The first item that
    ``parse`` refuses (with ``fails``) is named by its index in the ``error`` raised:
    ``where[3]: why``."""
    parsed = []
    for index, value in enumerate(values):
        try:
            parsed.append(parse(value))
        except fails as failure:
            raise error(f"{where}[{index}]: {failure}") from None
    return parsed


def _card_list(value: object, where: str) -> list[int]:
    if not isinstance(value, list):
        raise LayoutError(f"{where} must be a list of card names")
    return parse_items(value, parse_face, where=where, fails=CardError, error=LayoutError)


def _check_multiset(rules: Rules, faces: list[int], removed: list[int]) -> None:
    expected = Counter(deck_faces(rules.suits))
    for suit in removed:
        for rank in range(1, RUN_LENGTH + 1):
            expected[make_card(rank, suit)] -= 1
    got = Counter(faces)
    if got == expected:
        return
    missing = sorted((expected - got).elements())
    extra = sorted((got - expected).elements())
    parts = []
    if missing:
        parts.append(f"missing {', '.join(names(missing[:8]))}{' …' if len(missing) > 8 else ''}")
    if extra:
        parts.append(f"too many {', '.join(names(extra[:8]))}{' …' if len(extra) > 8 else ''}")
    raise LayoutError(
        f"the cards are not those of a {rules.suits}-suit game less the removed runs: "
        + "; ".join(parts)
    )


def _parse_removed(rules: Rules, value: object) -> list[int]:
    if not isinstance(value, list):
        raise LayoutError("layout.removed must be a list of suits")
    try:
        removed = [parse_suit(suit) for suit in value]
    except CardError as error:
        raise LayoutError(f"layout.removed: {error}") from None
    allowed = suits_in_play(rules.suits)
    runs_per_suit = 8 // rules.suits
    for suit, count in Counter(removed).items():
        if suit not in allowed:
            raise LayoutError(f"layout.removed: a {rules.suits}-suit deck has no {SUITS[suit]}")
        if count > runs_per_suit:
            raise LayoutError(f"layout.removed: only {runs_per_suit} runs of {SUITS[suit]} exist")
    if len(removed) > RUNS_TO_WIN:
        raise LayoutError("layout.removed: at most 8 runs")
    return removed


def state_from_layout(rules: Rules, layout: object) -> GameState:
    """Validate a layout object and build its position; card ids follow layout order."""
    if not isinstance(layout, dict):
        raise LayoutError("layout must be an object with 'tableau' and 'stock'")
    unknown = sorted(set(layout) - {"tableau", "stock", "removed"})
    if unknown:
        raise LayoutError(f"layout has unknown field(s): {', '.join(map(str, unknown))}")
    tableau = layout.get("tableau")
    if not isinstance(tableau, list) or len(tableau) != COLUMNS:
        raise LayoutError("layout.tableau must be a list of exactly 10 columns")
    piles: list[tuple[list[int], list[int]]] = []
    for index, column in enumerate(tableau):
        if not isinstance(column, dict) or set(column) - {"down", "up"}:
            raise LayoutError(f"layout.tableau[{index}] must be an object with 'down' and 'up'")
        down = _card_list(column.get("down", []), f"layout.tableau[{index}].down")
        up = _card_list(column.get("up", []), f"layout.tableau[{index}].up")
        piles.append((down, up))
    stock = _card_list(layout.get("stock"), "layout.stock")
    if len(stock) % COLUMNS:
        raise LayoutError(f"layout.stock holds {len(stock)} cards, not a multiple of 10")
    removed = _parse_removed(rules, layout.get("removed", []))
    everything = [face for down, up in piles for face in down + up] + stock
    _check_multiset(rules, everything, removed)
    return build_state(rules, piles, stock, removed)


def build_state(
    rules: Rules,
    piles: list[tuple[list[int], list[int]]],
    stock: list[int],
    removed: list[int],
) -> GameState:
    """A position from faces, giving each physical card an id in layout order; checks settling."""
    next_id = 0

    def with_ids(faces: list[int]) -> tuple[Card, ...]:
        nonlocal next_id
        cards = tuple(face | (next_id + i) << 6 for i, face in enumerate(faces))
        next_id += len(faces)
        return cards

    columns = []
    for index, (down, up) in enumerate(piles):
        column = Column(with_ids(down), with_ids(up))
        if _ends_with_run(column.up):
            raise LayoutError(f"layout is not settled: column {index} ends with a completed run")
        if column.down and not column.up and not rules.manual_flip:
            raise LayoutError(
                f"layout is not settled: column {index} has face-down cards and none face up"
            )
        columns.append(column)
    return GameState(rules, tuple(columns), with_ids(stock), tuple(removed))


def state_to_layout(state: GameState) -> dict[str, Any]:
    """The full layout (face-down cards and stock included): never for a player's eyes."""
    return {
        "tableau": [
            {"down": names(column.down), "up": names(column.up)} for column in state.columns
        ],
        "stock": names(state.stock),
        "removed": [SUITS[suit] for suit in state.removed],
    }


def describe_card(card: Card) -> str:
    return f"{card_name(card)} (rank {rank_of(card)}, suit {SUITS[suit_of(card)]})"


class SketchError(ValueError):
    """A sketch of a position that does not parse."""


def _sketch_faces(text: str) -> list[int]:
    try:
        return [parse_face(name) for name in text.split()]
    except CardError as error:
        raise SketchError(str(error)) from None


def sketch_state(
    rules: Rules, columns: list[str], stock: str = "", removed: str = ""
) -> GameState:
    """A position written by hand, for tests and puzzles: ``"Ks 3h / 7h 6h"`` is a column
    with Ks and 3h face down and 7h, 6h face up (bottom to top); ``"7h"`` has no face-down
    card; ``""`` is empty. Missing columns are empty, ``stock`` lists cards in deal order,
    ``removed`` the suits of removed runs (``"s h"``). Settling is checked, the card
    multiset is not: a sketch may hold any cards.
    """
    if len(columns) > COLUMNS:
        raise SketchError(f"a sketch has at most 10 columns, not {len(columns)}")
    piles = []
    for text in [*columns, *[""] * (COLUMNS - len(columns))]:
        down, _, up = text.rpartition("/")
        piles.append((_sketch_faces(down), _sketch_faces(up)))
    stock_faces = _sketch_faces(stock)
    if len(stock_faces) % COLUMNS:
        raise SketchError(f"a stock of {len(stock_faces)} cards is not a multiple of 10")
    try:
        suits = [parse_suit(name) for name in removed.split()]
    except CardError as error:
        raise SketchError(str(error)) from None
    try:
        return build_state(rules, piles, stock_faces, suits)
    except LayoutError as error:
        raise SketchError(str(error)) from None
