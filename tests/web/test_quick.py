"""The lobby's Quick duel button (issue 25, docs/api.md "Quick duel"): paired at once, or
waiting — paired later, when the next player asks — with the number of players looking
kept live; photographed at 1280 × 800 and 390 × 844 (tests/artifacts/quick-*.png)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.web.axe import serious
from tests.web.conftest import LiveServer
from tests.web.fake import MATCH_ID, ME, TABLE_ID, FakeServer

SIZES = {"1280x800": {"viewport": {"width": 1280, "height": 800}},
         "390x844": {"viewport": {"width": 390, "height": 844}, "has_touch": True,
                     "is_mobile": True}}


def quick_table(match_id: int | None) -> dict[str, Any]:
    return {"id": TABLE_ID, "owner_id": ME["id"], "owner_name": ME["name"], "preset": "duel",
            "suits": 2, "time_limit_seconds": 600, "level": "intermediate", "public": False,
            "rated": True, "quick": True, "status": "open" if match_id is None else "full",
            "match_id": match_id, "match_status": None if match_id is None else "playing",
            "seats": [{"seat": 0, "player_id": ME["id"], "name": ME["name"],
                       "wants_new_game": False}]}


class QuickServer:
    """The fake server, plus /api/quick-duel: ``paired`` says what a POST answers."""

    def __init__(self, page: Page, *, paired: bool) -> None:
        self.fake = FakeServer()
        self.fake.install(page)
        self.paired = paired
        self.posts: list[dict[str, Any]] = []
        self.deleted = 0
        page.route("**/api/quick-duel", self.answer)

    def answer(self, route: Route) -> None:
        method = route.request.method
        if method == "GET":
            route.fulfill(json={"looking": 2})
        elif method == "POST":
            self.posts.append(json.loads(route.request.post_data or "{}"))
            table = quick_table(MATCH_ID if self.paired else None)
            route.fulfill(status=200 if self.paired else 201,
                          json={"paired": self.paired, "table": table, "looking": 3})
        else:
            self.deleted += 1
            route.fulfill(status=204)


@pytest.fixture(params=list(SIZES))
def screen(request: pytest.FixtureRequest, browser: Browser) -> Any:
    context = browser.new_context(**SIZES[request.param])
    yield request.param, context.new_page()
    context.close()


def test_paired_live_goes_straight_to_the_table(screen: tuple[str, Page],
                                                static_server: LiveServer,
                                                artifacts: Path) -> None:
    size, page = screen
    server = QuickServer(page, paired=True)
    page.goto(static_server.url)
    button = page.locator("#quick-duel")
    expect(button).to_have_text("Quick duel")
    expect(page.locator("#quick-looking")).to_have_text("2 players looking")
    page.locator("#quick-suits").select_option("2")
    page.screenshot(path=artifacts / f"quick-lobby-{size}.png")
    assert serious(page) == []
    button.click()
    page.wait_for_function(f"() => location.hash === '#/table/{TABLE_ID}'")
    expect(page.locator(".tableau .column")).to_have_count(10)
    assert server.posts == [{"suits": 2}]


def test_paired_later_waits_then_goes_to_the_table(screen: tuple[str, Page],
                                                   static_server: LiveServer,
                                                   artifacts: Path) -> None:
    size, page = screen
    server = QuickServer(page, paired=False)
    page.goto(static_server.url)
    page.locator("#quick-suits").select_option("2")
    page.locator("#quick-duel").click()
    waiting = page.locator("#quick-waiting")
    expect(waiting).to_contain_text("Looking for a player of your level (2 suits)")
    expect(page.locator("#quick-suits")).to_be_disabled()  # one request at a time
    expect(page.locator("#quick-looking")).to_have_text("3 players looking")
    # Live: another player starts looking.
    server.fake.push(server.fake.socket, {"type": "quick_looking", "looking": 4})
    expect(page.locator("#quick-looking")).to_have_text("4 players looking")
    page.screenshot(path=artifacts / f"quick-waiting-{size}.png")
    assert serious(page) == []
    # The next player who asks for the same is paired with me: my table has its match.
    server.fake.push(server.fake.socket, {"type": "lobby", "change": "seat_taken",
                                          "table": quick_table(MATCH_ID)})
    page.wait_for_function(f"() => location.hash === '#/table/{TABLE_ID}'")
    expect(page.locator(".tableau .column")).to_have_count(10)


def test_stop_looking(page: Page, static_server: LiveServer) -> None:
    server = QuickServer(page, paired=False)
    page.add_init_script("localStorage.setItem('spider.lang', 'fr')")
    page.goto(static_server.url)
    page.locator("#quick-duel").click()
    expect(page.locator("#quick-waiting")).to_contain_text("Recherche d'un joueur")
    page.locator("#quick-stop").click()
    expect(page.locator("#quick-duel")).to_have_text("Duel express")
    assert server.deleted == 1
