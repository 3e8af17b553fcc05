"""Sub-commands of ``spider``."""

import json

import typer

from app.cli import cli
from app.engine.deal import deal as make_deal
from app.engine.layout import state_to_layout
from app.engine.rules import preset


@cli.command("deal")
def deal_command(
    number: int = typer.Argument(..., help="deal number, 1 and up"),
    suits: int = typer.Option(1, "--suits", help="1, 2 or 4"),
    preset_name: str = typer.Option("classic", "--preset", help="classic, relaxed or duel"),
) -> None:
    """Print the layout of a deal as JSON."""
    rules = preset(preset_name, suits)
    state = make_deal(number, rules)
    typer.echo(json.dumps({"rules": rules.to_json(), "layout": state_to_layout(state)}))
