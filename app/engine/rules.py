"""Rule options and the named presets that bundle them."""

from dataclasses import dataclass, replace
from typing import Any, Literal, cast

FlipRule = Literal["auto", "manual"]
UndoRule = Literal["all", "moves"]
ScoringName = Literal["duel", "windows", "aisleriot"]
PresetName = Literal["classic", "relaxed", "duel"]

PRESET_NAMES: tuple[PresetName, ...] = ("classic", "relaxed", "duel")
OPTION_NAMES = ("flip", "deal_over_empty", "undo", "scoring")


class RulesError(ValueError):
    """Rules that name an unknown preset or option, or give an option a bad value."""


@dataclass(frozen=True, slots=True)
class Rules:
    preset: PresetName
    suits: int
    flip: FlipRule
    deal_over_empty: bool
    undo: UndoRule
    scoring: ScoringName

    @property
    def manual_flip(self) -> bool:
        return self.flip == "manual"

    def to_json(self) -> dict[str, Any]:
        """The shortest ``rules`` object that means these rules: overrides only."""
        base = preset(self.preset, self.suits)
        out: dict[str, Any] = {"preset": self.preset, "suits": self.suits}
        for name in OPTION_NAMES:
            if getattr(self, name) != getattr(base, name):
                out[name] = getattr(self, name)
        return out


_PRESET_OPTIONS: dict[str, dict[str, Any]] = {
    "classic": {"flip": "auto", "deal_over_empty": False, "undo": "all", "scoring": "windows"},
    "relaxed": {"flip": "auto", "deal_over_empty": True, "undo": "all", "scoring": "windows"},
    "duel": {"flip": "manual", "deal_over_empty": True, "undo": "moves", "scoring": "duel"},
}

_ALLOWED: dict[str, tuple[object, ...]] = {
    "flip": ("auto", "manual"),
    "deal_over_empty": (True, False),
    "undo": ("all", "moves"),
    "scoring": ("duel", "windows", "aisleriot"),
}


def preset(name: str, suits: int) -> Rules:
    return rules_from_json({"preset": name, "suits": suits})


def rules_from_json(data: object) -> Rules:
    """Rules from a record's ``rules`` object; every problem raises :class:`RulesError`."""
    if not isinstance(data, dict):
        raise RulesError("rules must be an object with 'preset' and 'suits'")
    unknown = sorted(set(data) - {"preset", "suits", *OPTION_NAMES})
    if unknown:
        raise RulesError(f"unknown rule option(s): {', '.join(map(str, unknown))}")
    name = data.get("preset")
    if not isinstance(name, str) or name not in _PRESET_OPTIONS:
        raise RulesError(f"rules.preset must be one of {', '.join(PRESET_NAMES)}, not {name!r}")
    suits = data.get("suits")
    if type(suits) is not int or suits not in (1, 2, 4):
        raise RulesError(f"rules.suits must be 1, 2 or 4, not {suits!r}")
    options = dict(_PRESET_OPTIONS[name])
    for option in OPTION_NAMES:
        if option in data:
            value = data[option]
            if type(value) not in (str, bool) or value not in _ALLOWED[option]:
                allowed = ", ".join(map(repr, _ALLOWED[option]))
                raise RulesError(f"rules.{option} must be one of {allowed}, not {value!r}")
            options[option] = value
    return Rules(preset=cast(PresetName, name), suits=suits, **options)


def with_options(rules: Rules, **overrides: Any) -> Rules:
    return rules_from_json({**rules.to_json(), **overrides}) if overrides else replace(rules)
