"""Game records: the rule book's JSON form (rules, layout or deal number, actions)."""

import json
from dataclasses import dataclass, field
from typing import Any

from app.engine.actions import Action, ActionFormatError, action_from_json
from app.engine.deal import DealNumberError, deal
from app.engine.layout import LayoutError, parse_items, state_from_layout, state_to_layout
from app.engine.rules import Rules, RulesError, rules_from_json
from app.engine.state import GameState


class RecordError(ValueError):
    """A record refused as a whole; the message names what is wrong."""


@dataclass(frozen=True)
class Record:
    rules: Rules
    start: GameState
    actions: tuple[Action, ...] = ()
    deal_number: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self, *, with_layout: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": self.rules.to_json()}
        if self.deal_number is not None and not with_layout:
            out["deal"] = {"number": self.deal_number}
        else:
            out["layout"] = state_to_layout(self.start)
        out["moves"] = [action.to_json() for action in self.actions]
        return out


_TOP_LEVEL = {"rules", "layout", "deal", "moves"}


def record_from_json(data: object) -> Record:
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object with 'rules' and 'layout' or 'deal'")
    unknown = sorted(set(data) - _TOP_LEVEL)
    if unknown:
        raise RecordError(f"unknown field(s) in record: {', '.join(map(str, unknown))}")
    if "rules" not in data:
        raise RecordError("the record has no 'rules'")
    try:
        rules = rules_from_json(data["rules"])
    except RulesError as error:
        raise RecordError(str(error)) from None
    start, number = _start(data, rules)
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list of actions")
    actions = parse_items(moves, action_from_json, where="moves", fails=ActionFormatError,
                          error=RecordError)
    return Record(rules, start, tuple(actions), number)


def _start(data: dict[str, Any], rules: Rules) -> tuple[GameState, int | None]:
    if ("layout" in data) == ("deal" in data):
        raise RecordError("a record gives exactly one of 'layout' and 'deal'")
    if "layout" in data:
        try:
            return state_from_layout(rules, data["layout"]), None
        except LayoutError as error:
            raise RecordError(str(error)) from None
    spec = data["deal"]
    if not isinstance(spec, dict) or set(spec) != {"number"}:
        raise RecordError("'deal' must be an object {\"number\": N}")
    number = spec["number"]
    try:
        return deal(number, rules), number
    except DealNumberError as error:
        raise RecordError(f"deal.number: {error}") from None


def load_record(text: str) -> Record:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}") from None
    except RecursionError:
        raise RecordError("not JSON this program accepts: nested too deeply") from None
    except ValueError as error:  # e.g. an integer longer than Python converts
        raise RecordError(f"not JSON this program accepts: {error}") from None
    return record_from_json(data)
