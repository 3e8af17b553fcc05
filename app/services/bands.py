"""Level bands: named rating ranges used by tables' opponent level and player info.

Bands are closed below and open above; a new player (rating 1500) is ``intermediate``.
Documented in docs/ratings.md.
"""

from dataclasses import dataclass

from app.errors import InvalidInput


@dataclass(frozen=True)
class Band:
    name: str
    low: float  # inclusive
    high: float  # exclusive


BANDS = (
    Band("beginner", float("-inf"), 1350.0),
    Band("intermediate", 1350.0, 1650.0),
    Band("advanced", 1650.0, 1950.0),
    Band("expert", 1950.0, float("inf")),
)
ANY_LEVEL = "any"
LEVELS = (ANY_LEVEL, *(band.name for band in BANDS))


def band_of(rating: float) -> str:
    for band in BANDS:
        if band.low <= rating < band.high:
            return band.name
    return BANDS[-1].name


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise InvalidInput(f"level must be one of {', '.join(LEVELS)}, not {level!r}",
                           code="bad_level")
    return level


def level_allows(level: str, rating: float) -> bool:
    return level == ANY_LEVEL or band_of(rating) == level
