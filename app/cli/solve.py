"""``spider solve``: solve a record or a deal and print the win as a game record.

    spider solve FILE                       # from the record's position (after its moves)
    spider solve --deal 7 --suits 2         # deal 7 of the generator, classic rules
    spider solve --batch 1..100 --suits 2   # many deals: progress bar and summary table
    spider solve --deal 7 --exhaustive      # every legal move: may prove "unsolvable"

While a position is being solved, progress goes to stderr: a bar in a terminal, a plain
line a second when piped (nodes, depth of the line explored, elapsed seconds).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from app.cli.typer_app import cli
from app.engine.deal import DealNumberError, deal
from app.engine.game import replay
from app.engine.record import Record, RecordError, load_record
from app.engine.rules import Rules, RulesError, preset
from app.engine.solver import Solution, SolverLimitError, difficulty_of, solve
from app.engine.solver.polish import SHORT_NODES as POLISH_NODES
from app.engine.solver.solve import DEFAULT_NODES


class BatchRangeError(ValueError):
    """A ``--batch`` range that is not ``A..B`` with 1 ≤ A ≤ B."""


def parse_range(text: str) -> range:
    first, sep, last = text.partition("..")
    if not sep or not first.isdigit() or not last.isdigit():
        raise BatchRangeError(f"--batch wants A..B (for example 1..100), not {text!r}")
    start, stop = int(first), int(last)
    if not 1 <= start <= stop:
        raise BatchRangeError(f"--batch wants 1 <= A <= B, not {text!r}")
    return range(start, stop + 1)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code=2)


@cli.command("solve")
def solve_command(
    file: Annotated[
        Path | None, typer.Argument(help="a game record (JSON); '-' reads stdin")
    ] = None,
    deal_number: int | None = typer.Option(None, "--deal", help="deal number of the generator"),
    suits: int = typer.Option(1, "--suits", help="1, 2 or 4"),
    preset_name: str = typer.Option("classic", "--preset", help="classic, relaxed or duel"),
    nodes: int = typer.Option(DEFAULT_NODES, "--nodes", help="node budget per position"),
    seconds: float | None = typer.Option(None, "--seconds", help="wall-clock cap per position"),
    batch: str | None = typer.Option(None, "--batch", help="solve deals A..B, print a summary"),
    exhaustive: bool = typer.Option(
        False, "--exhaustive", help="try every legal move: can prove a position unsolvable"
    ),
    short: bool = typer.Option(
        False, "--short", help=f"after a win, spend {POLISH_NODES} nodes on a shorter one"
    ),
) -> None:
    """Solve with full knowledge; print the solution as a game record (JSON)."""
    try:
        if batch is not None:
            _batch(parse_range(batch), preset(preset_name, suits), nodes, seconds)
            return
        record = _record(file, deal_number, suits, preset_name)
        start = replay(record.start, record.actions)
        with progress_on_stderr(nodes) as report:
            found = solve(start, nodes=nodes, seconds=seconds, exhaustive=exhaustive,
                          polish_nodes=POLISH_NODES if short else 0, progress=report)
    except (BatchRangeError, RecordError, RulesError, DealNumberError, SolverLimitError) as error:
        raise _fail(str(error)) from None
    level = difficulty_of(found.nodes, suits=start.rules.suits, solved=found.solved)
    searched = found.nodes + found.polish_nodes
    typer.echo(
        f"{found.status}: {len(found.actions)} actions, {searched} nodes, "
        f"{found.seconds:.2f} s, {level}",
        err=True,
    )
    if not found.solved:
        raise typer.Exit(code=1)
    solved = Record(record.rules, record.start, record.actions + found.actions, record.deal_number)
    typer.echo(json.dumps(solved.to_json()))


@contextmanager
def progress_on_stderr(budget: int) -> Iterator[Callable[[int, int], None]]:
    """A progress callback for :func:`solve`: a bar on a terminal, else a line a second."""
    started = time.perf_counter()
    if sys.stderr.isatty():
        with Progress(
            TextColumn("solving"), BarColumn(), TextColumn("{task.fields[text]}"),
            TimeElapsedColumn(), console=Console(stderr=True), transient=True,
        ) as bar:
            task = bar.add_task("solve", total=budget, text="")

            def show(nodes: int, depth: int) -> None:
                bar.update(task, completed=min(nodes, budget),
                           text=f"{nodes:,} nodes, depth {depth}")

            yield show
        return
    last = started

    def line(nodes: int, depth: int) -> None:
        nonlocal last
        now = time.perf_counter()
        if now - last >= 1.0:
            last = now
            print(f"solving: {nodes} nodes, depth {depth}, {now - started:.1f} s",
                  file=sys.stderr, flush=True)

    yield line


def _record(file: Path | None, number: int | None, suits: int, preset_name: str) -> Record:
    if (file is None) == (number is None):
        raise RecordError("give either a record FILE or --deal N (with --suits and --preset)")
    if file is not None:
        text = sys.stdin.read() if str(file) == "-" else file.read_text()
        return load_record(text)
    assert number is not None
    rules = preset(preset_name, suits)
    return Record(rules, deal(number, rules), (), number)


def _batch(numbers: range, rules: Rules, nodes: int, seconds: float | None) -> None:
    results: list[tuple[int, Solution]] = []
    with Progress(transient=True) as progress:
        task = progress.add_task(f"solving {len(numbers)} deals", total=len(numbers))
        for number in numbers:
            results.append((number, solve(deal(number, rules), nodes=nodes, seconds=seconds)))
            progress.advance(task)
    console = Console()
    console.print(summary_table(f"{rules.suits} suit(s), {rules.preset}", results))


def summary_table(title: str, results: list[tuple[int, Solution]]) -> Table:
    """Solved / unsolvable / unknown counts and median, p95 time and nodes (fits 80
    characters: short headers, the long names in the caption)."""
    table = Table(title=title, caption="med = median, p95 = 95th percentile",
                  caption_justify="left")
    for name in ("deals", "solved", "unsolv.", "unknown", "med s", "p95 s",
                 "med nodes", "p95 nodes"):
        table.add_column(name, justify="right")
    found = [solution for _, solution in results]
    times = [solution.seconds for solution in found]
    effort = [solution.nodes for solution in found]
    table.add_row(
        str(len(found)),
        str(sum(s.status == "solved" for s in found)),
        str(sum(s.status == "unsolvable" for s in found)),
        str(sum(s.status == "unknown" for s in found)),
        f"{statistics.median(times):.2f}",
        f"{percentile(times, 95):.2f}",
        f"{statistics.median(effort):.0f}",
        f"{percentile(effort, 95):.0f}",
    )
    return table


def percentile(values: list[float] | list[int], pct: float) -> float:
    """Nearest-rank percentile (no interpolation: a value that really occurred)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * pct // 100))
    return float(ordered[int(rank) - 1])
