"""`spider solve`: a record or a deal in, a winning game record out; --batch summarises."""

import json
from pathlib import Path

from typer.testing import CliRunner

from app.cli import cli
from app.cli import commands as _commands  # noqa: F401  (more than one command: sub-commands)
from app.cli import solve as _solve  # noqa: F401  (registers `spider solve`)
from app.cli.solve import BatchRangeError, parse_range, percentile
from app.engine.game import replay
from app.engine.record import record_from_json

runner = CliRunner()


def test_solving_a_deal_prints_a_record_that_replays_to_a_win() -> None:
    result = runner.invoke(cli, ["solve", "--deal", "1", "--suits", "1"])
    assert result.exit_code == 0, result.output
    record = record_from_json(json.loads(result.stdout.strip().splitlines()[-1]))
    assert record.deal_number == 1
    assert replay(record.start, record.actions).won


def test_solving_a_record_keeps_its_moves_and_adds_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({
        "rules": {"preset": "duel", "suits": 1},
        "deal": {"number": 2},
        "moves": [{"op": "deal"}],
    }))
    result = runner.invoke(cli, ["solve", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["moves"][0] == {"op": "deal"}
    record = record_from_json(data)
    assert replay(record.start, record.actions).won


def test_a_batch_prints_a_summary_table() -> None:
    result = runner.invoke(cli, ["solve", "--batch", "1..3", "--suits", "1"])
    assert result.exit_code == 0, result.output
    assert "solved" in result.stdout and "median" in result.stdout
    assert "│     3 │      3 │" in result.stdout


def test_bad_input_is_refused_with_a_clear_message() -> None:
    result = runner.invoke(cli, ["solve", "--batch", "5..2"])
    assert result.exit_code == 2
    assert "1 <= A <= B" in result.output
    result = runner.invoke(cli, ["solve"])
    assert result.exit_code == 2
    assert "either a record FILE or --deal N" in result.output


def test_range_and_percentile_helpers() -> None:
    assert parse_range("3..5") == range(3, 6)
    for bad in ("3", "a..b", "0..2"):
        try:
            parse_range(bad)
        except BatchRangeError:
            continue
        raise AssertionError(f"{bad!r} accepted")
    assert percentile([5, 1, 4, 2, 3], 95) == 5
    assert percentile([5, 1, 4, 2, 3], 50) == 3
