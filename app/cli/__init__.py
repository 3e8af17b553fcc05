"""The ``spider`` command line: deal, replay, show (and solve, from the solver)."""

from app.cli.typer_app import cli

__all__ = ["cli", "main"]


def main() -> None:
    from app.cli import (
        commands,  # noqa: F401  (registers the sub-commands)
        serve,  # noqa: F401  (registers `spider serve`)
        solve,  # noqa: F401  (registers `spider solve`)
    )

    cli()
