"""The ``spider`` command: deal, replay, show; exit codes and output."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import app.cli.commands  # noqa: F401  (registers the sub-commands)
from app.cli import cli

GOLDEN = Path(__file__).parents[1] / "scoring" / "golden"
ILLEGAL = GOLDEN / "duel-4-suits-deal-99-illegal.record.json"
LEGAL = GOLDEN / "duel-2-suits-deal-7.record.json"
runner = CliRunner()


def spider(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed entry point (or the module when the script is not on PATH)."""
    script = shutil.which("spider", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-c", "from app.cli import main; main()"]
    return subprocess.run(
        [*command, *args], input=stdin, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_deal_prints_a_record_that_replays() -> None:
    result = runner.invoke(cli, ["deal", "42", "--suits", "2", "--preset", "duel"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    golden = json.loads((Path(__file__).parents[1] / "engine" / "golden" /
                         "deals-2-suits.json").read_text())
    assert record == {"rules": {"preset": "duel", "suits": 2}, "layout": golden["deals"]["42"]}
    replayed = runner.invoke(cli, ["replay", "-"], input=result.output)
    assert replayed.exit_code == 0
    assert json.loads(replayed.output)["final"] == golden["deals"]["42"]


@pytest.mark.parametrize("args", [["deal", "0"], ["deal", "3", "--suits", "3"],
                                  ["deal", "3", "--preset", "vegas"]])
def test_deal_refuses_bad_input_with_exit_2(args: list[str]) -> None:
    result = spider(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_replay_all_legal_exits_0() -> None:
    result = spider("replay", str(LEGAL))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    expected = json.loads((GOLDEN / "duel-2-suits-deal-7.expected.json").read_text())["default"]
    assert report == expected
    assert set(report) >= {"results", "final", "status", "score", "actions"}
    assert all(r["ok"] is True and "error" not in r for r in report["results"])


def test_replay_stops_at_the_first_illegal_action_and_exits_1() -> None:
    result = spider("replay", str(ILLEGAL))
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["results"][-1]["ok"] is False
    assert report["results"][-1]["error"] == "same_column"
    assert report["results"][-1]["message"]
    assert report["actions"] == len(report["results"]) - 1


def test_replay_keep_going_skips_illegal_actions_and_still_exits_1() -> None:
    result = runner.invoke(cli, ["replay", str(ILLEGAL), "--keep-going"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    record = json.loads(ILLEGAL.read_text())
    assert len(report["results"]) == len(record["moves"])
    assert report["actions"] == len(record["moves"]) - 2


def test_replay_reads_standard_input() -> None:
    result = spider("replay", "-", stdin=LEGAL.read_text())
    assert result.returncode == 0
    assert json.loads(result.stdout)["actions"] == 300


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("not json", "not JSON"),
        ('{"rules": {"preset": "duel", "suits": 2}}', "exactly one"),
        ('{"rules": {"preset": "duel", "suits": 2}, "deal": {"number": 1}, "moves": '
         '[{"op": "jump"}]}', "unknown op"),
        ("[" * 50_000, "nested"),
        ("\udcff", "UTF-8"),
    ],
)
def test_replay_invalid_records_exit_2_with_one_line(
    tmp_path: Path, content: str, fragment: str
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    result = spider("replay", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], result.stderr


def test_replay_unreadable_files_exit_2(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.json", tmp_path):
        result = spider("replay", str(path))
        assert result.returncode == 2
        assert len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.stderr


def test_show_prints_a_board_of_the_final_position() -> None:
    result = runner.invoke(cli, ["show", str(LEGAL)])
    assert result.exit_code == 0, result.output
    report = json.loads((GOLDEN / "duel-2-suits-deal-7.expected.json").read_text())["default"]
    lines = result.output.splitlines()
    assert lines[0].startswith("rules: duel, 2 suits")
    assert f"score (duel): {report['score']}" in result.output
    header = next(i for i, line in enumerate(lines) if line.split() == [str(n) for n in range(10)])
    columns = report["final"]["tableau"]
    height = max(len(c["down"]) + len(c["up"]) for c in columns)
    board = lines[header + 1 : header + 1 + height]
    # every face-up card of the final position is shown in its column, top row first
    for index, column in enumerate(columns):
        cells = [row[index * 4 : index * 4 + 4].strip() for row in board]
        shown = [cell for cell in cells if cell]
        assert shown == ["--"] * len(column["down"]) + column["up"]


def test_show_reports_where_it_stopped() -> None:
    result = spider("show", str(ILLEGAL))
    assert result.returncode == 1
    assert "stopped at action 60 (m3>3): same_column" in result.stdout


def test_show_invalid_record_exits_2() -> None:
    result = spider("show", "-", stdin="{}")
    assert result.returncode == 2 and "rules" in result.stderr
