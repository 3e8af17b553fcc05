"""Golden replays: fixed records whose final positions, verdicts and scores are pinned.

The generated goldens (``golden/*.record.json``) are long random games over built-in deals;
their ``*.expected.json`` hold the replay report, with and without ``keep_going``. The
hand-made records below have results worked out by hand from the rule book.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from app.engine.record import record_from_json
from app.scoring.replay import replay_record

GOLDEN = Path(__file__).parent / "golden"
NAMES = sorted(path.name.removesuffix(".record.json") for path in GOLDEN.glob("*.record.json"))
SPADES = [rank + "s" for rank in "KQJT98765432"]


def test_there_are_goldens() -> None:
    assert len(NAMES) >= 4


@pytest.mark.parametrize("name", NAMES)
def test_golden_replay(name: str) -> None:
    record = record_from_json(json.loads((GOLDEN / f"{name}.record.json").read_text()))
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    assert replay_record(record).to_json() == expected["default"]
    assert replay_record(record, keep_going=True).to_json() == expected["keep_going"]


def test_the_illegal_golden_stops_then_keeps_going() -> None:
    expected = json.loads((GOLDEN / "duel-4-suits-deal-99-illegal.expected.json").read_text())
    default, going = expected["default"], expected["keep_going"]
    assert default["results"][-1] == {
        "action": {"op": "move", "from": 3, "to": 3, "count": 1},
        "ok": False,
        "error": "same_column",
        "message": "source and target are both column 3",
    }
    assert len(default["results"]) == 61 and default["actions"] == 60
    assert len(going["results"]) == 120 and going["actions"] == 118
    assert [r["ok"] for r in going["results"]].count(False) == 2


def win_record(rules: dict[str, Any], after: list[dict[str, Any]]) -> dict[str, Any]:
    tableau: list[dict[str, list[str]]] = [{"down": [], "up": []} for _ in range(10)]
    tableau[0]["up"] = list(SPADES)
    tableau[1]["up"] = ["As"]
    return {
        "rules": rules,
        "layout": {"tableau": tableau, "stock": [], "removed": ["s"] * 7},
        "moves": [{"op": "move", "from": 1, "to": 0, "count": 1}, *after],
    }


def test_classic_win_then_undo_then_an_empty_stock() -> None:
    record = record_from_json(
        win_record({"preset": "classic", "suits": 1}, [{"op": "undo"}, {"op": "deal"}])
    )
    report = replay_record(record).to_json()
    assert [r["ok"] for r in report["results"]] == [True, True, False]
    assert report["results"][2]["error"] == "stock_empty"
    # winning ends nothing: the undo brings the run back and the game is on again
    assert report["status"] == "playing"
    assert report["final"]["tableau"][0]["up"] == SPADES and report["final"]["removed"] == ["s"] * 7
    assert report["score"] == 500 - 2 + 700 and report["actions"] == 2


def test_classic_win() -> None:
    report = replay_record(record_from_json(win_record({"preset": "classic", "suits": 1}, [])))
    assert report.to_json()["status"] == "won"
    assert report.to_json()["score"] == 500 - 1 + 800
    assert report.to_json()["final"] == {
        "tableau": [{"down": [], "up": []}] * 10, "stock": [], "removed": ["s"] * 8
    }


def test_duel_win_and_the_run_is_a_barrier() -> None:
    record = record_from_json(win_record({"preset": "duel", "suits": 1}, [{"op": "undo"}]))
    report = replay_record(record, keep_going=True).to_json()
    assert report["status"] == "won"
    assert report["score"] == -1 + 2 + 50 + 100
    assert report["results"][1]["error"] == "undo_barrier"
    assert report["actions"] == 1


def test_aisleriot_win() -> None:
    rules = {"preset": "duel", "suits": 1, "scoring": "aisleriot"}
    report = replay_record(record_from_json(win_record(rules, []))).to_json()
    assert report["score"] == 96 and report["scoring"] == "aisleriot"
