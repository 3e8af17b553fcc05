"""Suite-wide defaults.

Servers started by tests (in process or as subprocesses, which inherit the environment)
run without the background pool of solvable deals: dozens of servers each solving deals
in the background would only add noise to a 2-core machine. The pool's own tests turn
it on explicitly (``deal_pool_size=...``).
"""

import os

import pytest

os.environ.setdefault("SPIDER_DEAL_POOL_SIZE", "0")
os.environ.setdefault("SPIDER_DEAL_POOL_RATED_SIZE", "0")
os.environ.setdefault("SPIDER_SOLO_POOL_SIZE", "0")
os.environ.setdefault("SPIDER_SOLO_POOL_FOUR_SUITS_SIZE", "0")
# Every server frame is checked against the protocol models (and the fast serializer
# against them): production skips the check for speed.
os.environ.setdefault("SPIDER_WS_VALIDATE_FRAMES", "true")


BROWSER_FIXTURES = frozenset({"playwright", "browser", "context", "page"})


@pytest.hookimpl(trylast=True)  # after pytest's own grouping by parametrized fixtures
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests last, in their order. Playwright's sync API keeps an event loop
    running in the main thread from the first browser test on, and an async test after
    it cannot start its own ("Runner.run() cannot be called from a running event loop"):
    `pytest tests/web tests/services` failed where the whole suite, in path order, passed."""
    def uses_a_browser(item: pytest.Item) -> bool:
        return bool(BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())))

    items[:] = [i for i in items if not uses_a_browser(i)] + [i for i in items
                                                              if uses_a_browser(i)]
