"""`spider serve`: one server process, configured from the settings (SPIDER_* variables)."""

from app.cli.typer_app import cli


@cli.command("serve")
def serve_command() -> None:
    """Run the server (host, port and limits from SPIDER_* settings)."""
    from app.ops.serve import main

    main()
