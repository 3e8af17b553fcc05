"""The lobby's Quick duel button (issue 25, docs/api.md "Quick duel"): paired at once into a
waiting player's match, or — nobody waits — my game starts at once and the opponent's panel
says who plays it later (paired when the next player asks), with the number of players
looking kept live; an older table without a match still waits in the lobby. Photographed
at 1280 × 800 and 390 × 844 (tests/artifacts/quick-*.png)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from playwright.sync_api import Browser, Page, Route, WebSocketRoute, expect

from app.wire.duel import MatchResult, PlayerResult, ProgressEvent, Snapshot
from app.wire.news import Lobby, QuickLooking
from tests.web.axe import serious
from tests.web.conftest import LiveServer, photograph
from tests.web.fake import (
    MATCH_ID,
    ME,
    OPPONENT,
    REVEALED_DEAL,
    TABLE_ID,
    FakeServer,
    lobby_table,
)

SIZES = {"1280x800": {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"},
         "390x844": {"viewport": {"width": 390, "height": 844}, "has_touch": True,
                     "is_mobile": True, "reduced_motion": "reduce"}}


def quick_table(match_id: int | None, *, alone: bool = False) -> dict[str, Any]:
    return {"id": TABLE_ID, "owner_id": ME["id"], "owner_name": ME["name"], "preset": "duel",
            "suits": 2, "time_limit_seconds": 600, "level": "intermediate", "public": False,
            "rated": True, "quick": True,
            "status": "open" if match_id is None or alone else "full",
            "match_id": match_id, "match_status": None if match_id is None else "playing",
            "seats": [{"seat": 0, "player_id": ME["id"], "name": ME["name"],
                       "wants_new_game": False}]}


class AloneServer(FakeServer):
    """My quick duel's match, nobody paired into it yet: my game only, not opened."""

    def snapshot(self) -> Snapshot:
        return msgspec.structs.replace(super().snapshot(), opponent=None)

    def receive(self, ws: WebSocketRoute, text: str | bytes) -> None:
        if json.loads(text)["type"] == "open_game":  # no opponent: no progress of theirs
            self.received.append(json.loads(text))
            self.push(ws, self.snapshot())
        else:
            super().receive(ws, text)


class QuickServer:
    """The fake server, plus /api/quick-duel: ``paired`` says what a POST answers; ``alone``:
    nobody waits, my match is made at once with my game only (the server's answer now)."""

    def __init__(self, page: Page, *, paired: bool, alone: bool = False) -> None:
        self.fake = AloneServer() if alone else FakeServer()
        self.fake.install(page)
        self.paired = paired
        self.alone = alone
        self.posts: list[dict[str, Any]] = []
        self.deleted = 0
        page.route("**/api/quick-duel", self.answer)
        if alone:
            self.table = quick_table(MATCH_ID, alone=True)
            page.route(f"**/api/tables/{TABLE_ID}", lambda route: route.fulfill(json=self.table))
            page.route(f"**/api/matches/{MATCH_ID}", lambda route: route.fulfill(json={
                "match_id": MATCH_ID, "table_id": TABLE_ID, "status": "playing",
                "winner_id": None, "start_deadline": None,
                "games": [{"player_id": ME["id"], "status": "not_started", "score": 0,
                           "time_used_ms": 0, "started_at": None, "rating_before": None,
                           "rating_after": None}]}))

    def answer(self, route: Route) -> None:
        method = route.request.method
        if method == "GET":
            route.fulfill(json={"looking": 2})
        elif method == "POST":
            self.posts.append(json.loads(route.request.post_data or "{}"))
            table = quick_table(MATCH_ID if self.paired or self.alone else None,
                                alone=self.alone)
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
    photograph(page, artifacts / f"quick-lobby-{size}.png")
    assert serious(page) == []
    button.click()
    page.wait_for_function(f"() => location.hash === '#/table/{TABLE_ID}'")
    expect(page.locator(".tableau .column")).to_have_count(10)
    assert server.posts == [{"suits": 2}]


def test_nobody_waits_i_play_at_once(screen: tuple[str, Page], static_server: LiveServer,
                                     artifacts: Path) -> None:
    """My match is made at once: straight to my game (no ready screen), the opponent's panel
    says who plays it later; the next player who asks arrives live."""
    size, page = screen
    server = QuickServer(page, paired=False, alone=True)
    page.goto(static_server.url)
    page.locator("#quick-suits").select_option("2")
    page.locator("#quick-duel").click()
    page.wait_for_function(f"() => location.hash === '#/table/{TABLE_ID}'")
    expect(page.locator(".tableau .column")).to_have_count(10)  # playing, not "Start"
    assert {"type": "open_game", "match_id": MATCH_ID} in server.fake.received
    expect(page.locator("#quick-later")).to_have_text(
        "Your opponent will play this deal later — you will be paired with the next player "
        "who asks.")
    later = page.locator("#their-state")
    expect(later).to_have_text("plays later")
    expect(page.locator("#say")).to_have_count(0)  # nobody to say anything to yet
    expect(page.locator(".player.them .name")).not_to_have_attribute("href", re.compile(""))
    photograph(page, artifacts / f"quick-alone-{size}.png")
    assert serious(page) == []
    # The next player who asks is paired into my match: their panel comes alive.
    server.table = {**server.table, "status": "full", "seats": server.fake.seats}
    server.fake.push(server.fake.socket, Lobby("seat_taken", lobby_table(server.table)))
    server.fake.push(server.fake.socket, ProgressEvent(MATCH_ID, msgspec.structs.replace(
        server.fake.progress(score=0, runs=0), status="not_started",
        start_deadline="2026-12-03T15:00:00Z")))
    expect(later).to_contain_text(f"{OPPONENT['name']} has not started yet")
    expect(page.locator("#quick-later")).to_have_count(0)
    expect(page.locator("#say")).to_have_count(1)
    expect(page.locator(".error")).to_have_count(0)  # no invitation link made for it
    photograph(page, artifacts / f"quick-paired-{size}.png")


@pytest.mark.parametrize(("lang", "words"), [
    ("fr", "Votre adversaire jouera cette donne plus tard"),
    ("de", "Dein Gegner spielt dieses Blatt später"),
])
def test_nobody_waits_said_in_french_and_german(page: Page, static_server: LiveServer,
                                                lang: str, words: str) -> None:
    QuickServer(page, paired=False, alone=True)
    page.add_init_script(f"localStorage.setItem('spider.lang', '{lang}')")
    page.goto(static_server.url)
    page.locator("#quick-duel").click()
    expect(page.locator("#quick-later")).to_contain_text(words)


def test_a_table_without_a_match_waits_then_goes_to_the_table(screen: tuple[str, Page],
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
    server.fake.push(server.fake.socket, QuickLooking(4))
    expect(page.locator("#quick-looking")).to_have_text("4 players looking")
    photograph(page, artifacts / f"quick-waiting-{size}.png")
    assert serious(page) == []
    # The next player who asks for the same is paired with me: my table has its match.
    server.fake.push(server.fake.socket, Lobby("seat_taken", lobby_table(quick_table(MATCH_ID))))
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


def test_finished_alone_then_nobody_came(screen: tuple[str, Page], static_server: LiveServer,
                                         artifacts: Path) -> None:
    """My game over, nobody paired: the status line still says who plays later (no spectating
    of nobody); the request lapses: a result with my game only, no opponent, no rating."""
    size, page = screen
    server = QuickServer(page, paired=False, alone=True)
    page.goto(static_server.url)
    page.locator("#quick-duel").click()
    expect(page.locator(".tableau .column")).to_have_count(10)
    page.locator("#finish").click()
    page.click("#confirm-finish-yes")  # the page's own dialog
    expect(page.locator("#leave")).to_be_visible()
    expect(page.locator("#quick-later")).to_be_visible()
    assert not any(m["type"] == "spectate" for m in server.fake.received)
    server.fake.push(server.fake.socket, MatchResult(
        MATCH_ID, None,
        [PlayerResult(ME["id"], ME["name"], 480, 65_000, "finished", None, None)],
        REVEALED_DEAL))
    expect(page.locator("#winner")).to_have_text("No opponent in time")
    expect(page.locator("#no-result")).to_have_text(
        "Nobody was paired with you before the deadline: the match ends without a result, "
        "and your rating does not change.")
    expect(page.locator("#say")).to_have_count(0)  # nobody to say anything to
    expect(page.locator("#new-game")).to_have_count(0)
    expect(page.locator("#share-text")).to_have_count(0)
    expect(page.locator(".scoresheet tbody tr")).to_have_count(1)
    photograph(page, artifacts / f"quick-lapsed-{size}.png")
    assert serious(page) == []


def test_real_server_i_play_at_once_and_the_next_player_joins_my_deal(
        browser: Browser, app_server: LiveServer, artifacts: Path) -> None:
    """Against the real server: Alice asks while nobody waits and plays at once; Bob asks
    next, is seated into her match and plays at once too; Alice's page sees him arrive."""
    from tests.web.test_e2e import new_player

    alice = new_player(browser, app_server, "alice")
    alice.locator("#quick-duel").click()
    expect(alice.locator(".tableau .column")).to_have_count(10)  # no ready screen
    expect(alice.locator("#quick-later")).to_contain_text("will play this deal later")
    expect(alice.locator("#their-state")).to_have_text("plays later")
    expect(alice.locator("#my-clock")).not_to_have_text("10:00")  # my clock runs
    photograph(alice, artifacts / "quick-e2e-alone.png")

    bob = new_player(browser, app_server, "bob")
    expect(bob.locator("#quick-looking")).to_have_text("1 player looking")
    bob.locator("#quick-duel").click()
    expect(bob.locator(".tableau .column")).to_have_count(10)
    expect(bob.locator(".player.them .name")).to_have_text("alice")
    expect(bob.locator("#quick-later")).to_have_count(0)
    # Alice's page: her opponent is bob now, playing the same deal.
    expect(alice.locator(".player.them .name")).to_have_text("bob")
    expect(alice.locator("#quick-later")).to_have_count(0)
    expect(alice.locator("#their-state")).to_have_text("playing")
    photograph(bob, artifacts / "quick-e2e-paired.png")


def test_real_server_finished_alone_my_duel_waits_in_my_tables(
        browser: Browser, app_server: LiveServer, artifacts: Path) -> None:
    """My game over, nobody paired yet: leaving its page keeps the duel (My tables says the
    opponent plays later), and the next player who asks is still seated into it."""
    from tests.web.test_e2e import new_player

    alice = new_player(browser, app_server, "alice")
    alice.locator("#quick-duel").click()
    expect(alice.locator(".tableau .column")).to_have_count(10)
    alice.locator("#finish").click()
    alice.click("#confirm-finish-yes")
    expect(alice.locator("#quick-later")).to_be_visible()  # not "Waiting for Opponent…"
    alice.locator("#leave").click()
    mine = alice.get_by_role("region", name="My tables")
    expect(mine).to_contain_text("Your game is over; your opponent will play this deal later")
    photograph(alice, artifacts / "quick-e2e-my-tables.png", full_page=True)

    bob = new_player(browser, app_server, "bob")
    bob.locator("#quick-duel").click()
    expect(bob.locator(".player.them .name")).to_have_text("alice")
    expect(bob.locator("#their-state")).to_have_text("finished early")
