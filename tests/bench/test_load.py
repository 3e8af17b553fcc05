"""The load harness's own bookkeeping: the server-side latency shares it prints."""

from bench.load import LATENCY_BUCKET, Phase

METRICS = """\
# HELP spider_action_latency_seconds Time from receiving an action frame to sending its answer.
# TYPE spider_action_latency_seconds histogram
spider_action_latency_seconds_bucket{le="0.001"} 50.0
spider_action_latency_seconds_bucket{le="0.0025"} 180.0
spider_action_latency_seconds_bucket{le="0.005"} 196.0
spider_action_latency_seconds_bucket{le="0.01"} 199.0
spider_action_latency_seconds_bucket{le="+Inf"} 200.0
spider_action_latency_seconds_count 200.0
"""


def test_the_share_of_actions_the_server_answered_slowly_comes_from_its_histogram() -> None:
    buckets = {le: float(n) for le, n in LATENCY_BUCKET.findall(METRICS)}
    assert buckets["0.0025"] == 180.0 and buckets["+Inf"] == 200.0
    phase = Phase("duels human", server_latency=buckets)
    assert phase.server_over_ms() == {"2.5": 10.0, "5.0": 2.0, "10.0": 0.5}
    assert Phase("echo human").server_over_ms() == {}
