"""`spider cluster`'s HAProxy configuration: the committed file with the workers listed."""

import shutil
import subprocess
from pathlib import Path

import pytest

from app.ops.cluster import HAPROXY_CONFIG, ClusterError, render_haproxy


def test_the_worker_list_is_replaced_and_the_rest_kept() -> None:
    template = HAPROXY_CONFIG.read_text()
    rendered = render_haproxy(template, ["10.0.0.5:8001", "10.0.0.6:8001", "10.0.0.7:8001"])
    servers = [line.strip() for line in rendered.splitlines()
               if line.strip().startswith("server ")]
    assert servers == ["server w1 10.0.0.5:8001", "server w2 10.0.0.6:8001",
                       "server w3 10.0.0.7:8001"]
    kept = [line for line in template.splitlines() if not line.strip().startswith("server ")]
    assert [line for line in rendered.splitlines()
            if not line.strip().startswith("server ")] == kept
    for needed in ("balance leastconn", "option httpchk GET /readyz", "option redispatch",
                   "option forwardfor", "timeout tunnel"):
        assert needed in rendered
    settings = [line.split("#")[0] for line in rendered.splitlines()]
    assert not [line for line in settings if "cookie" in line or "stick" in line]  # no stickiness


def test_a_template_without_the_worker_block_is_refused() -> None:
    with pytest.raises(ClusterError, match="BEGIN workers"):
        render_haproxy("global\n", ["127.0.0.1:8001"])


def test_haproxy_accepts_the_rendered_configuration(tmp_path: Path) -> None:
    haproxy = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin")
    if haproxy is None:
        from tests.support.servers import unavailable

        unavailable("haproxy is not installed (make haproxy)")
    config = tmp_path / "haproxy.cfg"
    config.write_text(render_haproxy(HAPROXY_CONFIG.read_text(), ["127.0.0.1:9001"]))
    checked = subprocess.run([str(haproxy), "-c", "-f", str(config)], capture_output=True,
                             env={"SPIDER_LB_BIND": "127.0.0.1:9000"}, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _started_cluster(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **options: str
                     ) -> list[str]:
    """Start a LocalCluster whose processes are stand-ins; returns HAProxy's bind."""
    from app.ops import cluster

    binds: list[str] = []
    monkeypatch.setattr(cluster.Worker, "start", lambda self: None)
    monkeypatch.setattr(cluster, "_wait_ready", lambda worker: None)
    monkeypatch.setattr(cluster, "start_haproxy",
                        lambda *, workers, bind, workdir: binds.append(bind))
    env = {"SPIDER_DATABASE_URL": "postgresql+asyncpg://u@h/db"}
    cluster.LocalCluster(2, 8000, 8001, tmp_path, env, **options).start()
    return binds


def test_the_balancer_listens_on_loopback_unless_told(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    assert _started_cluster(monkeypatch, tmp_path) == ["127.0.0.1:8000"]
    assert _started_cluster(monkeypatch, tmp_path, host="0.0.0.0") == ["0.0.0.0:8000"]


def test_spider_cluster_takes_the_balancer_address_as_an_option(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner

    import app.cli.cluster  # registers `spider cluster`
    import app.cli.commands  # noqa: F401  (and the others, as `spider` has them)
    from app.cli import cli
    from app.ops import cluster

    calls: list[dict[str, object]] = []
    monkeypatch.setattr(cluster, "run", lambda **options: calls.append(options))
    assert CliRunner().invoke(cli, ["cluster"]).exit_code == 0
    assert CliRunner().invoke(cli, ["cluster", "--host", "0.0.0.0"]).exit_code == 0
    assert [call["host"] for call in calls] == ["127.0.0.1", "0.0.0.0"]
