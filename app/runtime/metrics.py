"""Every Prometheus metric of the server, in one place.

The live code increments these with one line each, e.g.::

    from app.runtime import metrics
    metrics.ACTIONS.labels(op="move").inc()

Actions per second is `rate(spider_actions_total[1m])` on the Prometheus side; a counter
is the honest primitive, a rate computed in-process would hide restarts.
"""

import math
import time
from bisect import bisect_left
from collections.abc import Iterator

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Gauge, generate_latest
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

CONNECTIONS = Gauge(
    "spider_ws_connections",
    "Open WebSocket connections on this process.",
)


class LatencyHistogram(Collector):
    """A histogram observed once per action: plain numbers, turned into the metric when
    scraped. prometheus_client's ``Histogram`` takes a lock twice per observation, for
    threads; the live layer observes from its event loop only."""

    def __init__(self, name: str, documentation: str, buckets: tuple[float, ...]) -> None:
        self._name, self._documentation = name, documentation
        self._bounds = buckets
        self._counts = [0] * (len(buckets) + 1)  # the last: above every bound (+Inf)
        self.total = 0.0  # the sum of the observations, seconds
        REGISTRY.register(self)

    def observe(self, amount: float) -> None:
        self._counts[bisect_left(self._bounds, amount)] += 1  # le: a bound counts itself
        self.total += amount

    def collect(self) -> Iterator[HistogramMetricFamily]:
        family = HistogramMetricFamily(self._name, self._documentation)
        cumulative, buckets = 0, []
        for bound, count in zip((*self._bounds, math.inf), self._counts, strict=True):
            cumulative += count
            buckets.append((("+Inf" if bound == math.inf else repr(bound)), cumulative))
        family.add_metric([], buckets, self.total)
        yield family


class ActionCounter(Collector):
    """A counter by one label, counted once per action in plain numbers and turned into
    the metric when scraped, as :class:`LatencyHistogram`: a labelled child of
    prometheus_client's ``Counter`` takes a lock and checks itself on every increment
    (~4 k instructions, 2 % of an action's CPU in the rooms layer)."""

    def __init__(self, name: str, documentation: str, label: str,
                 values: tuple[str, ...]) -> None:
        self._name, self._documentation, self._label = name, documentation, label
        self._created = time.time()
        # Known values appear at zero from the first scrape: dashboards and alerts see
        # a series before the first event happens.
        self.counts: dict[str, int] = dict.fromkeys(values, 0)
        REGISTRY.register(self)

    def inc(self, value: str) -> None:
        self.counts[value] = self.counts.get(value, 0) + 1

    def collect(self) -> Iterator[CounterMetricFamily]:
        family = CounterMetricFamily(self._name, self._documentation, labels=[self._label])
        for value, count in self.counts.items():
            family.add_metric([value], count, created=self._created)
        yield family


ACTIONS = ActionCounter(
    "spider_actions",  # exposed as spider_actions_total, as a Counter is
    "Game actions accepted, validated and persisted.",
    "op", ("move", "deal", "flip", "undo", "finish"),
)
ACTION_LATENCY = LatencyHistogram(
    "spider_action_latency_seconds",
    "Time from receiving an action frame to sending its answer.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
REJECTED = Counter(
    "spider_actions_rejected_total",
    "Actions or frames refused, by reason code (illegal move, stale seq, limit, bad frame).",
    ["code"],
)
ERRORS = Counter(
    "spider_errors_total",
    "Unexpected server errors, by where they happened.",
    ["where"],
)
HTTP_REQUESTS = Counter(
    "spider_http_requests_total",
    "HTTP requests answered, by status class.",
    ["status"],
)

# Known label values appear at zero from the first scrape, so dashboards and alerts
# see a series before the first event happens.
for _where in ("http", "ws", "pubsub"):
    ERRORS.labels(where=_where)


# The labelled children rejections count into, by code: `labels()` resolves a child
# under a lock on every call.
_REFUSED: dict[str, Counter] = {}


def record_answer(*, refused: str | None, duplicate: bool, op: object, started: float
                  ) -> None:
    """Count an action's answer (an ack, or a refusal with its code ``refused``) and
    time it from `started` (perf_counter)."""
    ACTION_LATENCY.observe(time.perf_counter() - started)
    if refused is None:
        if not duplicate:
            ACTIONS.inc(str(op))  # an ack's op is one of the five the engine accepts
    else:
        code = refused  # the server's own codes
        counter = _REFUSED.get(code)
        if counter is None:
            counter = _REFUSED[code] = REJECTED.labels(code=code)
        counter.inc()


def render() -> tuple[bytes, str]:
    """The exposition text of the default registry and its content type."""
    return generate_latest(), CONTENT_TYPE_LATEST
