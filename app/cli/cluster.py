"""`spider cluster`: N workers + HAProxy on this machine (app/ops/cluster.py)."""

from pathlib import Path

import typer

from app.cli.typer_app import cli


@cli.command("cluster")
def cluster_command(
    workers: int = typer.Option(2, "--workers", min=1, help="worker processes"),
    port: int = typer.Option(8000, "--port", help="where HAProxy listens"),
    host: str = typer.Option("127.0.0.1", "--host",
                             help="HAProxy's address (0.0.0.0: every interface)"),
    first_port: int = typer.Option(8001, "--first-port", help="the first worker's port"),
    workdir: str = typer.Option("", "--workdir", help="configs and logs (default: a temp dir)"),
) -> None:
    """Run workers behind HAProxy (deploy/haproxy.cfg) on PostgreSQL and Redis."""
    from app.ops.cluster import ClusterError, run

    try:
        run(workers=workers, port=port, first_port=first_port, host=host,
            workdir=Path(workdir) if workdir else None)
    except ClusterError as error:
        typer.echo(f"spider: {error}", err=True)
        raise typer.Exit(2) from None
