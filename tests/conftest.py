"""Suite-wide defaults.

Servers started by tests (in process or as subprocesses, which inherit the environment)
run without the background pool of solvable deals: dozens of servers each solving deals
in the background would only add noise to a 2-core machine. The pool's own tests turn
it on explicitly (``deal_pool_size=...``).
"""

import asyncio
import os
from collections.abc import Generator

import pytest
from hypothesis import settings

os.environ.setdefault("SPIDER_DEAL_POOL_SIZE", "0")
os.environ.setdefault("SPIDER_DEAL_POOL_RATED_SIZE", "0")
os.environ.setdefault("SPIDER_SOLO_POOL_SIZE", "0")
os.environ.setdefault("SPIDER_SOLO_POOL_FOUR_SUITS_SIZE", "0")
# Every server frame is checked against the protocol models (and the fast serializer
# against them): production skips the check for speed.
os.environ.setdefault("SPIDER_WS_VALIDATE_FRAMES", "true")

# No per-example deadline: the suite runs on several workers of a 2-core machine, where a
# quick example may wait its turn for a core. Speed is the benchmarks' business (bench/).
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


BROWSER_FIXTURES = frozenset({"playwright", "browser", "context", "page"})


def uses_a_browser(item: pytest.Item) -> bool:
    return bool(BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())))


@pytest.hookimpl(trylast=True)  # after pytest's own grouping by parametrized fixtures
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests first, in their order: they are the longest (over half of the run's
    time in a tenth of its tests), and on several workers the long ones go first so that
    the short ones fill in at the end (one by one, it changes nothing)."""
    items[:] = [i for i in items if uses_a_browser(i)] + [i for i in items
                                                          if not uses_a_browser(i)]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None
                            ) -> Generator[None, object, object]:
    """Any test may come after a browser test: they run first, and pytest-xdist's workers
    steal tests from each other in any order.

    Playwright's sync API marks its event loop as running in the main thread between its
    calls (its dispatcher greenlet waits inside ``run_until_complete``; it marks the loop
    again after each call), and an async test after it could not start its own
    ("Runner.run() cannot be called from a running event loop"). Around other tests the
    mark is taken off, and put back after."""
    parked = None if uses_a_browser(item) else asyncio._get_running_loop()
    if parked is None:
        return (yield)
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        if asyncio._get_running_loop() is None:
            asyncio._set_running_loop(parked)
