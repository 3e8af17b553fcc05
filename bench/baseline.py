"""Today's engine beside an earlier one, each in its own process, for side-by-side runs.

On a shared machine a figure means little alone: the engine benchmarks run the same
work on the engine of a fixed earlier commit (``app/engine`` and ``app/scoring`` as they
were, taken with ``git archive``) and on today's, alternating, and report the ratio.
Both run this checkout's ``bench`` code: it uses only the engine's public API, which
both have. The engine imports nothing else from ``app`` but the wire's game parts
(``app/wire/game.py``, the type of its ``player_view``, since issue 22), taken with it
where the commit has them, so the two halves of ``app`` never mix.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BASELINE_REF = "e42e4894682b6ffddc59ab49e002898ef8c8deaf"
"""``main`` before the faster, lighter engine (issue 14, part 4): the figures' baseline."""

_BOOT = (
    "import runpy, sys\n"
    "tree, root, module = sys.argv[1:4]\n"
    "sys.argv = [module, *sys.argv[4:]]\n"
    "sys.path[:0] = [path for path in (tree, root) if path]\n"
    "runpy.run_module(module, run_name='__main__', alter_sys=True)\n"
)


class BaselineUnavailable(RuntimeError):
    """The baseline commit cannot be read (no git, or a clone without that commit)."""


WIRE_PARTS = ("app/wire/__init__.py", "app/wire/base.py", "app/wire/game.py")
"""What the engine imports of the wire, where it does (``app.engine.view``)."""


def extract_engine(ref: str, into: Path) -> Path:
    """Write ``app/engine`` and ``app/scoring`` as of ``ref`` under ``into`` (and the wire's
    game parts, if ``ref`` has them); return it."""
    try:
        has_wire = subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "-e", f"{ref}:{WIRE_PARTS[-1]}"],
            check=False, capture_output=True,
        ).returncode == 0
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "app/__init__.py", "app/engine",
             "app/scoring", *(WIRE_PARTS if has_wire else ())],
            check=True, capture_output=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", b"") or b""
        raise BaselineUnavailable(
            f"cannot read the engine at {ref}: {detail.decode(errors='replace').strip() or error}"
        ) from None
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--baseline", default=BASELINE_REF,
                        help=f"commit whose engine to compare with (default {BASELINE_REF[:10]})")
    parser.add_argument("--no-baseline", action="store_true", help="today's engine only")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)


@contextmanager
def engines(args: argparse.Namespace) -> Iterator[tuple[dict[str, Path | None], str]]:
    """The engines to run, by name (``new``: today's; ``baseline``: extracted), and the
    baseline's commit (``"none"`` when there is none: unavailable or not asked for)."""
    with tempfile.TemporaryDirectory(prefix="engine-baseline-") as scratch:
        found: dict[str, Path | None] = {"new": None}
        compared = "none"
        if not args.no_baseline:
            try:
                found["baseline"] = extract_engine(args.baseline, Path(scratch))
                compared = args.baseline
            except BaselineUnavailable as error:
                print(f"no baseline: {error}", file=sys.stderr)
        yield found, compared


def run_worker(tree: Path | None, module: str, args: list[str], stdin: str = "") -> Any:
    """Run ``python -m module --worker args`` on the engine in ``tree`` (None: today's).

    The worker prints one JSON document; it is returned parsed.
    """
    command = [sys.executable, "-c", _BOOT, str(tree or ""), str(ROOT), module, "--worker",
               *args]
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=ROOT,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{module} worker failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout)


def ratio(new: float, old: float | None) -> float | None:
    return None if not old else new / old
