"""The ``spider`` command line: deal, replay, show, solve, serve, cluster."""

import typer

cli = typer.Typer(add_completion=False, no_args_is_help=True, help="Spider Solitaire tools.")


def main() -> None:
    from app.cli import (
        cluster,  # noqa: F401  (registers `spider cluster`)
        commands,  # noqa: F401  (registers the sub-commands)
        serve,  # noqa: F401  (registers `spider serve`)
        solve,  # noqa: F401  (registers `spider solve`)
    )

    cli()
