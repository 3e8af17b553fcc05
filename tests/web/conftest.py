"""Browser tests: a real uvicorn server on a free port and Debian's Chromium via Playwright."""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Locator, Page, expect

from app.settings import Settings
from tests.support.database import sqlite_url, upgrade
from tests.support.testing_app import create_testing_app

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
SCREENSHOTS = os.environ.get("SPIDER_SCREENSHOTS", "") not in ("", "0")

# Two cores shared with the rest of the suite: give the browser time before failing.
expect.set_options(timeout=10_000)


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing: run `make browser` (apt-get install chromium)")
    return {
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-gpu",
        ],
    }


def pick(option: Locator) -> None:
    """Check a radio drawn as a segmented button (its input is transparent, over the
    label). Forced, as a tap on the label would be; but only once it is drawn: a forced
    check does not wait, and failed on a busy machine while the screen was being drawn."""
    expect(option).to_be_visible()
    option.check(force=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LiveServer:
    """uvicorn in a thread, serving the testing app built from ``settings``."""

    def __init__(self, settings: Settings, **config_options: Any) -> None:
        self.settings = settings
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        options: dict[str, Any] = {"log_level": "warning", **config_options}
        config = uvicorn.Config(create_testing_app(settings), host="127.0.0.1", port=self.port,
                                **options)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


_TEMPLATE: list[Path] = []  # the migrated SQLite file of this run, made once


def _migrated_template() -> Path:
    """One SQLite file migrated to head for the whole run: each server starts on a copy
    (migrating took ~1 s a server on a quiet machine, a copy takes milliseconds)."""
    if not _TEMPLATE:
        folder = tempfile.mkdtemp(prefix="spider-web-template-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        template = Path(folder) / "template.db"
        # Playwright's sync API keeps an event loop running here; Alembic needs its own.
        migrate = threading.Thread(target=upgrade, args=(sqlite_url(template),))
        migrate.start()
        migrate.join()
        if not template.exists():
            raise RuntimeError("the template database was not migrated (see the log above)")
        _TEMPLATE.append(template)
    return _TEMPLATE[0]


def test_settings(folder: Path) -> Settings:
    """Settings on a fresh, migrated SQLite database in ``folder``."""
    database = folder / "spider.db"
    shutil.copyfile(_migrated_template(), database)
    url = sqlite_url(database)
    return Settings(
        database_url=url, secret_key="web-test-secret",
        player_create_burst=1000, player_create_per_minute=1000,
        # The solver's node budgets decide a rescue or an auto-complete here, not the wall
        # clock: on a loaded machine (CI, 3 workers on 2 cores) 2.5 s of wall time once
        # cut the rescue of the day's daily short ("no way out in time"), so a test's
        # outcome hung on the load. Budgets in seconds are a product setting, tested in
        # tests/services.
        solo_rescue_seconds=60.0, solo_auto_complete_seconds=60.0,
    )


@pytest.fixture(scope="module")
def static_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The app serving web/; tests that fake the API put their answers in front of it.

    One per module, not per session: a running app holds process-wide state (its solver
    processes, its deal pool), and on a pytest-xdist worker the tests of other modules
    (which expect solver calls on threads) may come after this module's."""
    with LiveServer(test_settings(tmp_path_factory.mktemp("static-db"))) as server:
        yield server


@pytest.fixture
def app_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The whole app on a fresh migrated SQLite database: real REST and WebSocket."""
    with LiveServer(test_settings(tmp_path)) as server:
        yield server


@pytest.fixture(autouse=True)
def _close_pages_after(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close the browser contexts a test opened once it is over: left open, every page of
    every earlier test keeps its clock ticking and its socket reconnecting to a server
    that has gone, and over the whole suite they took the two cores from the tests."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


def photograph(subject: Page | Locator, path: Path, **options: Any) -> None:
    """A screenshot for a person to look at, in tests/artifacts/, taken when the run asks
    for them (``make screenshots``, or SPIDER_SCREENSHOTS=1). No test reads them back, and
    the suite's ~180 of them cost about a sixth of the browser tests' time (12 s of 70 in
    a sample of 17 tests on a quiet machine), so ``make test`` takes none."""
    if SCREENSHOTS:
        subject.screenshot(path=path, **options)


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
