"""Cards as small integers.

A card is ``id << 6 | suit << 4 | rank``: rank 1 (ace) to 13 (king), suit 0-3
(spades, hearts, diamonds, clubs) and a physical id unique within one game, so that
rules such as "each physical card earns its in-suit bonus once" can tell the eight
kings of spades apart. ``card & FACE`` is the face alone; two cards build a same-suit
sequence exactly when ``(lower & FACE) + 1 == (upper & FACE)``.
"""

from collections.abc import Iterable, Sequence

RANKS = "A23456789TJQK"
SUITS = "shdc"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)
FACE = 63
KING = 13
ACE = 1
RUN_LENGTH = 13
DECK_SIZE = 104

Card = int


class CardError(ValueError):
    """A card name that is not rank + suit, or a suit count the game does not offer."""


def make_card(rank: int, suit: int, card_id: int = 0) -> Card:
    return card_id << 6 | suit << 4 | rank


def rank_of(card: Card) -> int:
    return card & 15


def suit_of(card: Card) -> int:
    return (card >> 4) & 3


def id_of(card: Card) -> int:
    return card >> 6


def face_of(card: Card) -> int:
    return card & FACE


FACE_NAMES: tuple[str, ...] = tuple(
    RANKS[rank - 1] + SUITS[(face >> 4) & 3] if 1 <= (rank := face & 15) <= KING else "??"
    for face in range(FACE + 1)
)
"""Every face's name, by ``card & FACE``: every view and event names its cards, so a
lookup replaces building each string anew (ranks 0, 14 and 15 name no card: ``"??"``)."""


def card_name(card: Card) -> str:
    return FACE_NAMES[card & FACE]


def spoken_name(card: Card) -> str:
    return f"{RANK_NAMES[rank_of(card) - 1]} of {SUIT_NAMES[suit_of(card)]}"


def parse_face(name: object) -> int:
    """The face (rank and suit, no id) of a name such as ``"Ks"`` or ``"Th"``."""
    if not isinstance(name, str) or len(name) != 2:
        raise CardError(f"not a card name: {name!r} (rank A23456789TJQK + suit shdc)")
    rank = RANKS.find(name[0])
    suit = SUITS.find(name[1])
    if rank < 0 or suit < 0:
        raise CardError(f"not a card name: {name!r} (rank A23456789TJQK + suit shdc)")
    return make_card(rank + 1, suit)


def parse_suit(name: object) -> int:
    if not isinstance(name, str) or len(name) != 1 or name not in SUITS:
        raise CardError(f"not a suit: {name!r} (one of s h d c)")
    return SUITS.index(name)


def suits_in_play(suit_count: int) -> tuple[int, ...]:
    """The suits a deck of ``suit_count`` suits uses: 1 → ♠; 2 → ♠♥; 4 → ♠♥♦♣."""
    if suit_count not in (1, 2, 4):
        raise CardError(f"suits must be 1, 2 or 4, not {suit_count!r}")
    return tuple(range(suit_count))


def deck_faces(suit_count: int) -> list[int]:
    """The 104 faces of a two-deck game, in a fixed order: suit by suit, A to K per run."""
    suits = suits_in_play(suit_count)
    runs_per_suit = 8 // len(suits)
    return [
        make_card(rank, suit)
        for suit in suits
        for _ in range(runs_per_suit)
        for rank in range(1, KING + 1)
    ]


def names(cards: Iterable[Card]) -> list[str]:
    table = FACE_NAMES
    return [table[card & FACE] for card in cards]


def is_same_suit_sequence(cards: Sequence[Card]) -> bool:
    """True when every card is one rank below the card under it, in the same suit."""
    return all(
        (cards[i + 1] & FACE) + 1 == (cards[i] & FACE) for i in range(len(cards) - 1)
    )
