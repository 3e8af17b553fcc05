"""Sub-commands of ``spider``: deal, replay, show.

Exit codes (the rule book's): 0 every action was legal, 1 one was not, 2 the input could
not be read or is not a valid record (one line on stderr, never a traceback).
"""

import json
import sys

import typer

from app.cli.board import render_board
from app.cli.typer_app import cli
from app.engine.deal import DealNumberError
from app.engine.deal import deal as make_deal
from app.engine.layout import state_to_layout
from app.engine.record import Record, RecordError, load_record
from app.engine.rules import RulesError, preset
from app.scoring.replay import ReplayReport, replay_record

EXIT_ILLEGAL = 1
EXIT_INVALID = 2
RECORD_FILE = typer.Argument(..., help="a JSON game record; - reads standard input")
KEEP_GOING = typer.Option(
    False, "--keep-going", help="skip an illegal action and go on instead of stopping there")


def fail(message: str) -> typer.Exit:
    """Print one line on stderr; the caller raises the returned exit (code 2)."""
    typer.echo(f"spider: {message}", err=True)
    return typer.Exit(EXIT_INVALID)


def read_text(path: str) -> str:
    """The text of ``path``, ``-`` meaning standard input; unreadable input exits 2."""
    try:
        if path == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError as error:
        raise fail(f"{path}: not UTF-8 text ({error.reason})") from None
    except OSError as error:
        raise fail(f"{path}: {error.strerror or error}") from None


def read_record(path: str) -> Record:
    try:
        return load_record(read_text(path))
    except RecordError as error:
        raise fail(f"{path}: invalid record: {error}") from None


def _exit_code(report: ReplayReport) -> int:
    return 0 if report.all_legal else EXIT_ILLEGAL


@cli.command("deal")
def deal_command(
    number: int = typer.Argument(..., help="deal number, 1 and up"),
    suits: int = typer.Option(1, "--suits", help="1, 2 or 4"),
    preset_name: str = typer.Option("classic", "--preset", help="classic, relaxed or duel"),
) -> None:
    """Print the layout of a deal as a JSON game record (no moves yet)."""
    try:
        rules = preset(preset_name, suits)
        state = make_deal(number, rules)
    except (RulesError, DealNumberError) as error:
        raise fail(str(error)) from None
    typer.echo(json.dumps({"rules": rules.to_json(), "layout": state_to_layout(state)}))


@cli.command("replay")
def replay_command(file: str = RECORD_FILE, keep_going: bool = KEEP_GOING) -> None:
    """Apply a record's actions in order and print the verdicts, final position and score."""
    report = replay_record(read_record(file), keep_going=keep_going)
    typer.echo(json.dumps(report.to_json()))
    raise typer.Exit(_exit_code(report))


@cli.command("show")
def show_command(file: str = RECORD_FILE, keep_going: bool = KEEP_GOING) -> None:
    """Print a readable text board of a record's final position."""
    report = replay_record(read_record(file), keep_going=keep_going)
    game = report.game
    typer.echo(render_board(game.state), nl=False)
    typer.echo(
        f"\nactions: {game.state.actions}   score ({game.score.scheme}): {game.points}"
    )
    for index, result in enumerate(report.results):
        if result.error is not None:
            verb = "skipped" if keep_going else "stopped at"
            typer.echo(
                f"{verb} action {index} ({result.action.text()}): "
                f"{result.error.code}: {result.error.message}"
            )
    raise typer.Exit(_exit_code(report))
