"""The ``spider`` command line: deal, replay, show, solve, serve, cluster."""

from app.cli.typer_app import cli

__all__ = ["cli", "main"]


def main() -> None:
    from app.cli import (
        cluster,  # noqa: F401  (registers `spider cluster`)
        commands,  # noqa: F401  (registers the sub-commands)
        serve,  # noqa: F401  (registers `spider serve`)
        solve,  # noqa: F401  (registers `spider solve`)
    )

    cli()
