"""The deal generator: deal number + suit count → starting position, the same forever.

Algorithm version 1 (documented in docs/deal-generator.md; changing anything here
needs a new version, the old one kept):
1. seed = SHA-256 of the ASCII text ``spider-duel/deal/v1/{suits}/{number}``; the first
   16 bytes, as two little-endian 64-bit words, seed xorshift128+ (Vigna's
   published generator; its output is the sum of its two state words).
2. The 104 faces in deck order (``cards.deck_faces``) are shuffled by Fisher–Yates from
   the last index down; index ``j`` in ``[0, i]`` is drawn by rejection so that every
   permutation is equally likely.
3. The shuffled faces are laid out in order: columns 0-3 take 6 cards and columns 4-9
   take 5 (bottom to top; the top one face up), then the 50 left form the stock,
   ``stock[0]`` being the first card dealt, onto column 0.
"""

import hashlib

from app.engine.cards import deck_faces
from app.engine.layout import build_state
from app.engine.rules import Rules
from app.engine.state import GameState

GENERATOR_VERSION = 1
MASK64 = (1 << 64) - 1
COLUMN_SIZES = (6, 6, 6, 6, 5, 5, 5, 5, 5, 5)


class DealNumberError(ValueError):
    """A deal number that is not a positive integer."""


class XorShift128Plus:
    """xorshift128+ (Vigna 2014): tiny, fast, fully specified, and not ours to invent."""

    def __init__(self, seed: bytes) -> None:
        self.s0 = int.from_bytes(seed[0:8], "little") or 1
        self.s1 = int.from_bytes(seed[8:16], "little") or 2

    def next64(self) -> int:
        s1 = self.s0
        s0 = self.s1
        self.s0 = s0
        s1 ^= (s1 << 23) & MASK64
        self.s1 = s1 ^ s0 ^ (s1 >> 17) ^ (s0 >> 26)
        return (self.s1 + s0) & MASK64

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound) by rejection of the biased tail."""
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = self.next64()
            if value < limit:
                return value % bound


def shuffled_faces(number: int, suits: int, version: int = GENERATOR_VERSION) -> list[int]:
    if type(number) is not int or number < 1:
        raise DealNumberError(f"a deal number is a whole number from 1 up, not {number!r}")
    if version != 1:
        raise DealNumberError(f"unknown deal generator version {version}")
    faces = deck_faces(suits)
    seed = hashlib.sha256(f"spider-duel/deal/v{version}/{suits}/{number}".encode()).digest()
    rng = XorShift128Plus(seed)
    for i in range(len(faces) - 1, 0, -1):
        j = rng.below(i + 1)
        faces[i], faces[j] = faces[j], faces[i]
    return faces


def deal(number: int, rules: Rules, version: int = GENERATOR_VERSION) -> GameState:
    """The starting position of deal ``number`` under ``rules`` (suit count from the rules)."""
    faces = shuffled_faces(number, rules.suits, version)
    piles: list[tuple[list[int], list[int]]] = []
    start = 0
    for size in COLUMN_SIZES:
        column = faces[start : start + size]
        piles.append((column[:-1], column[-1:]))
        start += size
    return build_state(rules, piles, faces[start:], [])
