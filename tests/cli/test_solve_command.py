"""`spider solve`: a record or a deal in, a winning game record out; --batch summarises."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli import cli
from app.cli import commands as _commands  # noqa: F401  (more than one command: sub-commands)
from app.cli import solve as _solve  # registers `spider solve`
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
    assert "│     3 │      3 │" in result.stdout, result.stdout


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


def _record_file(tmp_path: Path, preset_name: str) -> Path:
    """Three cards out and a row in the stock: under classic the stock can never be dealt
    (an empty column always remains), under relaxed it can."""
    from app.engine.layout import sketch_state, state_to_layout
    from app.engine.rules import preset

    state = sketch_state(preset(preset_name, 1), ["Ks Qs Js"],
                         stock="Ts 9s 8s 7s 6s 5s 4s 3s 2s As", removed="s s s s s s s")
    path = tmp_path / f"{preset_name}.json"
    path.write_text(json.dumps({"rules": {"preset": preset_name, "suits": 1},
                                "layout": state_to_layout(state), "moves": []}))
    return path


def test_exhaustive_proves_a_position_unsolvable_with_a_node_count(tmp_path: Path) -> None:
    result = runner.invoke(cli, ["solve", str(_record_file(tmp_path, "classic")), "--exhaustive"])
    assert result.exit_code == 1
    assert result.stderr.startswith("unsolvable: 0 actions, ")
    nodes = int(result.stderr.split(", ")[1].split()[0])
    assert nodes > 10
    # the fast search never claims a proof
    result = runner.invoke(cli, ["solve", str(_record_file(tmp_path, "classic")),
                                 "--nodes", "500"])
    assert result.stderr.startswith("unknown:")
    # the same cards under relaxed (deals over empty columns) are won
    result = runner.invoke(cli, ["solve", str(_record_file(tmp_path, "relaxed")), "--exhaustive"])
    assert result.exit_code == 0 and result.stderr.startswith("solved:")


def test_short_gives_a_line_no_longer_than_the_plain_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The command's budget (150,000 polish nodes) took 9 s alone and 30-45 s in the
    # suite; 10,000 nodes shorten this line from 120 actions to 94 in 0.4 s.
    monkeypatch.setattr(_solve, "POLISH_NODES", 10_000)
    plain = runner.invoke(cli, ["solve", "--deal", "3", "--suits", "1"])
    short = runner.invoke(cli, ["solve", "--deal", "3", "--suits", "1", "--short"])
    assert short.exit_code == 0, short.output
    count = [len(json.loads(r.stdout.strip().splitlines()[-1])["moves"]) for r in (plain, short)]
    assert count[1] < count[0]


def test_progress_goes_to_stderr_as_plain_lines_when_piped(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import io

    from app.cli import solve as module

    clock = iter([0.0, 0.5, 1.2, 1.4, 2.5])
    monkeypatch.setattr(module.time, "perf_counter", lambda: next(clock))
    err = io.StringIO()
    monkeypatch.setattr(module.sys, "stderr", err)
    with module.progress_on_stderr(1000) as report:
        for nodes in (100, 200, 300, 400):
            report(nodes, 7)
    lines = err.getvalue().splitlines()
    assert lines == ["solving: 200 nodes, depth 7, 1.2 s", "solving: 400 nodes, depth 7, 2.5 s"]


def test_the_batch_table_fits_80_columns() -> None:
    result = runner.invoke(cli, ["solve", "--batch", "1..2", "--suits", "1"])
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
