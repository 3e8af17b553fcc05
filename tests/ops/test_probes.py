"""/healthz, /readyz and /metrics over HTTP."""

import httpx
import pytest
from fastapi import FastAPI
from prometheus_client import REGISTRY

from app.main import create_app
from app.runtime import metrics
from app.settings import Settings


def client_for(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")


@pytest.fixture
def app() -> FastAPI:
    return create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))


async def test_healthz_answers_while_the_process_runs(app: FastAPI) -> None:
    async with client_for(app) as client:
        response = await client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_readyz_passes_when_the_database_answers(app: FastAPI) -> None:
    async with client_for(app) as client:
        response = await client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "pubsub": "ok"}


async def test_readyz_fails_with_the_reason_when_the_database_is_down() -> None:
    # Port 1 on loopback: nothing listens there, the connect is refused at once.
    down = create_app(
        Settings(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/nothing")
    )
    async with client_for(down) as client:
        response = await client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] != "ok"
    assert body["checks"]["pubsub"] == "ok"


async def test_readyz_fails_while_draining(app: FastAPI) -> None:
    app.state.readiness.draining = True
    async with client_for(app) as client:
        response = await client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["shutdown"] == "draining"


async def test_readyz_says_degraded_without_failing_when_redis_is_away(app: FastAPI) -> None:
    # A worker that lost Redis still serves its own sockets (docs/operations.md): the
    # balancer must not take every worker out for a Redis blip, so 200, said degraded.
    class Unreachable:
        async def ping(self) -> None:
            raise ConnectionError("redis is gone")

    app.state.pubsub = Unreachable()
    async with client_for(app) as client:
        response = await client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["pubsub"].startswith("degraded: ")
    assert "redis is gone" in body["checks"]["pubsub"]


async def test_metrics_exposes_every_server_metric(app: FastAPI) -> None:
    metrics.ACTIONS.inc("move")
    metrics.REJECTED.labels(code="bad_column").inc()
    metrics.ACTION_LATENCY.observe(0.003)
    async with client_for(app) as client:
        response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    for name in (
        "spider_ws_connections",
        'spider_actions_total{op="move"}',
        'spider_actions_rejected_total{code="bad_column"}',
        "spider_action_latency_seconds_bucket",
        'spider_errors_total{where="ws"}',
    ):
        assert name in text, name


async def test_http_requests_are_counted_by_status_class(app: FastAPI) -> None:
    before = metrics.HTTP_REQUESTS.labels(status="4xx")._value.get()
    async with client_for(app) as client:
        await client.get("/no-such-page")
    assert metrics.HTTP_REQUESTS.labels(status="4xx")._value.get() == before + 1


def test_an_answer_is_counted_by_outcome_and_timed() -> None:
    import time

    def value(counter: object) -> float:
        return float(counter._value.get())  # type: ignore[attr-defined]

    def acks() -> float | None:
        return REGISTRY.get_sample_value("spider_actions_total", {"op": "deal"})

    stale = metrics.REJECTED.labels(code="stale_seq")
    before_ack, before_stale = acks(), value(stale)
    before_count = metrics.ACTION_LATENCY.total
    started = time.perf_counter() - 0.01
    metrics.record_answer(refused=None, duplicate=False, op="deal", started=started)
    metrics.record_answer(refused=None, duplicate=True, op="deal", started=started)
    metrics.record_answer(refused="stale_seq", duplicate=False, op="deal", started=started)
    assert before_ack is not None  # a known op is exposed at zero before its first action
    assert acks() == before_ack + 1  # a duplicate applies nothing: not counted
    assert value(stale) == before_stale + 1
    assert metrics.ACTION_LATENCY.total >= before_count + 0.03


def test_the_latency_histogram_counts_each_bound_in_its_own_bucket_cumulatively() -> None:
    histogram = metrics.LatencyHistogram("spider_test_latency_seconds", "test", (0.001, 0.01))
    try:
        for amount in (0.0005, 0.001, 0.002, 5.0):
            histogram.observe(amount)
        [family] = histogram.collect()
        samples = {(s.name, s.labels.get("le")): s.value for s in family.samples}
        assert samples[("spider_test_latency_seconds_bucket", "0.001")] == 2
        assert samples[("spider_test_latency_seconds_bucket", "0.01")] == 3
        assert samples[("spider_test_latency_seconds_bucket", "+Inf")] == 4
        assert samples[("spider_test_latency_seconds_count", None)] == 4
        assert abs(samples[("spider_test_latency_seconds_sum", None)] - 5.0035) < 1e-9
    finally:
        metrics.REGISTRY.unregister(histogram)
