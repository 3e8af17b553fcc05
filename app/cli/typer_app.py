"""The Typer application the sub-command modules register on.

Kept apart from ``app/cli/__init__.py`` so that a sub-command module imports it without
importing the package entry point that imports the sub-commands (no import circle).
"""

import typer

cli = typer.Typer(add_completion=False, no_args_is_help=True, help="Spider Solitaire tools.")
