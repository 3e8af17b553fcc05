"""A player's past in the browser against the real server (issue 25): the games list and
statistics with the rating chart on the player page, the replay of a solo game (starts at
the deal, says each step with its points, keys), the solo share text, and Redo.
Photographed at the four sizes to tests/artifacts/history-*.png; axe clean."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from app.db import games as repo
from app.db.engine import make_engine, make_session_factory
from app.engine.solver.solvable import solvable_deal
from app.services import results
from tests.support.play import play
from tests.support.sync_client import Account, Pace, SyncClient, play_solo_line, seat, signup
from tests.web.axe import serious
from tests.web.conftest import LiveServer, photograph
from tests.web.language import choose_language
from tests.web.test_e2e import signed_in_page
from tests.web.test_solo import no_sideways_scroll

SIZES = {"1280x800": (1280, 800), "1920x1080": (1920, 1080), "390x844": (390, 844),
         "844x390": (844, 390)}


def win_solo(server: LiveServer, http: httpx.Client, who: Account, number: int) -> int:
    """A 1-suit solvable deal won over the WebSocket by its solution."""
    started = http.post("/api/solo/games", json={"number": number, "options": {"suits": 1}},
                        headers=who.auth)
    assert started.status_code == 201, started.text
    game_id = int(started.json()["game"]["id"])
    client = SyncClient.open(server.url.replace("http", "ws"), who)
    client.request({"type": "solo_open", "game_id": game_id}, "solo_snapshot")
    play_solo_line(client, game_id, solvable_deal(number, 1).solution, Pace.of(server.settings))
    client.close()
    assert http.get(f"/api/solo/games/{game_id}").json()["status"] == "won"
    return game_id


def rated_duel(server: LiveServer, http: httpx.Client, ann: Account, bob: Account) -> None:
    """A rated 1-suit duel that moves ratings: seated over REST, then both games played
    to 20 actions over two minutes each and finished straight in the server's database
    (the rating minimum of docs/ratings.md is longer than a browser test should wait)."""
    match_id = seat(http, ann, bob, rated=True)
    done = threading.Thread(target=asyncio.run, args=(_play_both(server, match_id),))
    done.start()
    done.join()


async def _play_both(server: LiveServer, match_id: int) -> None:
    engine = make_engine(server.settings.database_url)
    try:
        async with make_session_factory(engine)() as session:
            for game in await repo.games_of_match(session, match_id=match_id):
                await play(session, game_id=game.id, steps=20, time_used_ms=130_000)
            await results.finish_match(session=session, match_id=match_id)
    finally:
        await engine.dispose()


def look(page: Page, artifacts: Path, name: str) -> None:
    no_sideways_scroll(page)
    photograph(page, artifacts / f"history-{name}.png", full_page=True)
    assert serious(page) == [], name


def test_my_games_statistics_rating_chart_and_a_solo_replay(
        browser: Browser, app_server: LiveServer, artifacts: Path) -> None:
    with httpx.Client(base_url=app_server.url, timeout=60) as http:
        ann, bob = signup(http, "ann"), signup(http, "bob")
        won = win_solo(app_server, http, ann, 8)
        for _ in range(2):
            rated_duel(app_server, http, ann, bob)
        deadline = time.monotonic() + 30  # a match is settled just after its second game
        while http.get(f"/api/players/{ann.id}/games").json()["total"] < 3:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        stats = http.get(f"/api/players/{ann.id}/stats").json()
    page = signed_in_page(browser, app_server, ann, "/#/player/ann", motion=True)
    games = page.locator("#games .gamerow")
    expect(games).to_have_count(3)
    expect(page.locator("#games-h")).to_have_text("My games")
    # Newest first: the two duels, then the solo win with its points and links.
    expect(games.nth(0)).to_contain_text("vs bob")
    solo = games.nth(2)
    expect(solo).to_contain_text("Solo")
    expect(solo).to_contain_text("deal 8")
    expect(solo).to_contain_text("Won")
    expect(solo.locator(".againlink")).to_have_attribute(
        "href", re.compile(r"#/solo\?number=8&suits=1"))
    expect(solo.locator(".replaylink")).to_have_attribute("href", f"#/player/ann/replay/solo/{won}")
    # Each figure with its own unit: a duel's two scores, a solo win's points.
    expect(solo.locator(".fig").first).to_have_text(re.compile(r"^Points: [\d,]+ pts$"))
    expect(games.nth(0).locator(".fig").first).to_have_text(re.compile(r"^Score: -?\d+ – -?\d+$"))
    row = page.locator("#mode-stats tr[data-mode=solo][data-suits='1']")
    expect(row.locator("td.rate")).to_have_text("100%")
    duel_row = page.locator("#mode-stats tr[data-mode=duel][data-suits='1']")
    expect(duel_row.locator("td").first).to_have_text("2")
    expect(row.locator("td").last).to_have_text(re.compile(r"^[\d,]+ pts$"))  # best points
    expect(duel_row.locator("td").last).to_have_text(re.compile(r"^-?\d+$"))  # best score
    # Wins in a row, said so: "Streak 0" here beside "Streak: 1 loss" on the player page
    # (a signed streak) read as a contradiction.
    expect(page.locator("#mode-stats thead")).to_contain_text("Wins in a row")
    chart = page.locator("svg#rating-chart")
    expect(chart).to_be_visible()
    [series] = stats["ratings"]
    expect(chart.locator("circle")).to_have_count(len(series["points"]))
    rated = len(series["points"]) - 1
    assert rated >= 1
    assert f"after {rated} rated match" in (chart.get_attribute("aria-label") or "")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        expect(page.locator("svg#rating-chart")).to_be_visible()
        look(page, artifacts, f"player-{size}")
        photograph(page.locator(".progress"), artifacts / f"history-past-{size}.png")

    # French: the same page in other words; no French or German column head runs into
    # the next at desktop size ("% DE VICTOIRES", "GEWONNEN" did).
    page.set_viewport_size({"width": 1280, "height": 800})
    choose_language(page, "fr")
    expect(page.locator("#games-h")).to_have_text("Mes parties")
    expect(page.locator("#stats-h")).to_have_text("Statistiques")
    for lang in ("fr", "de"):
        choose_language(page, lang)
        expect(page.locator("#mode-stats")).to_be_visible()
        spilled = page.evaluate("""() => [...document.querySelectorAll('table thead th')]
            .filter((th) => th.scrollWidth > th.clientWidth + 1).map((th) => th.textContent)""")
        assert spilled == [], (lang, spilled)
    choose_language(page, "en")

    # The solo game's replay: named, at the deal, each step said with its points.
    page.set_viewport_size({"width": 1280, "height": 800})
    solo.locator(".replaylink").click()
    expect(page.locator("#replay-h")).to_have_text("Replay — ann")
    expect(page.locator("#replay-sub")).to_contain_text("deal 8")
    expect(page.locator("#replay-step")).to_have_text("The deal, before the first move")
    expect(page.locator("#replay-at")).to_contain_text("Step 0 of")
    page.locator("body").press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_text(re.compile(
        r"^Step 1 of \d+: (?:(?:[2-9]|10|[AJQK])♠ (?:onto (?:[2-9]|10|[AJQK])♠|to an empty column)"
        r"|A new row dealt).*, (?:[+−]\d+|±0)$"))
    page.locator("body").press("ArrowRight")
    expect(page.locator("#replay-at")).to_contain_text("Step 2 of")
    page.locator("body").press("ArrowLeft")
    expect(page.locator("#replay-at")).to_contain_text("Step 1 of")
    page.locator("body").press("End")
    expect(page.locator("#replay-step")).to_contain_text("run completed")
    page.locator("body").press("Home")
    page.emulate_media(reduced_motion="reduce")
    page.locator("body").press(" ")  # plays
    expect(page.locator("#replay-play")).to_have_attribute("aria-label", "Pause")
    expect(page.locator("#replay-at")).not_to_contain_text("Step 0 of", timeout=5000)
    page.locator("body").press(" ")  # pauses
    expect(page.locator("#replay-play")).to_have_attribute("aria-label", "Play")
    # Mid-game, as the slider takes it: the photographs show a game under way.
    page.locator("#replay-slider").evaluate(
        "(el) => { el.value = 40; el.dispatchEvent(new Event('input')); }")
    expect(page.locator("#replay-at")).to_contain_text("Step 40 of")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        expect(page.locator(".replay .tableau .column")).to_have_count(10)
        look(page, artifacts, f"replay-{size}")
    page.locator("#replay-back").click()
    expect(page.locator("#games-h")).to_be_visible()


def test_a_game_in_progress_has_no_replay_for_anybody(
        browser: Browser, app_server: LiveServer) -> None:
    with httpx.Client(base_url=app_server.url, timeout=60) as http:
        ann = signup(http, "ann")
        started = http.post("/api/solo/games", json={"number": 77, "options": {"suits": 2}},
                            headers=ann.auth).json()["game"]["id"]
    page = signed_in_page(browser, app_server, ann, f"/#/player/ann/replay/solo/{started}",
                          motion=True)
    expect(page.locator("#replay-problem")).to_contain_text("cannot be replayed")
    assert page.locator(".replay .tableau").count() == 0
    page.goto("/#/player/ann")
    expect(page.locator("#no-games")).to_be_visible()  # in progress: not in the past
    # An empty section keeps its distance from the next heading ("No rated duel yet." ran
    # into "BADGES" on a phone).
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator("#no-rated")).to_be_visible()
    expect(page.locator("#badges-h")).to_be_visible()
    gap = page.evaluate("""() => {
      const said = document.getElementById('no-rated').getBoundingClientRect().bottom;
      const next = [...document.querySelectorAll('h2')].map((e) => e.getBoundingClientRect().top)
        .filter((top) => top >= said - 2);
      return Math.min(...next) - said; }""")
    assert gap >= 12, gap


def test_solo_share_text_and_redo(browser: Browser, app_server: LiveServer) -> None:
    with httpx.Client(base_url=app_server.url, timeout=60) as http:
        ann = signup(http, "ann")
        game_id = http.post("/api/solo/games", json={"number": 8, "options": {"suits": 1}},
                            headers=ann.auth).json()["game"]["id"]
    page = signed_in_page(browser, app_server, ann, f"/#/solo/{game_id}", motion=True)
    page.emulate_media(reduced_motion="reduce")
    expect(page.locator(".tableau .column")).to_have_count(10)
    redo = page.locator("#redo")
    expect(redo).to_be_disabled()
    first = solvable_deal(8, 1).solution[0].to_json()
    assert first["op"] == "move", first
    # One move by hint and Enter, then undo: Redo plays it again, as a move (an action).
    page.keyboard.press("i")
    expect(page.locator(".statusline.hint")).to_contain_text("Hint:")
    page.keyboard.press("Enter")
    expect(page.locator("#solo-actions")).to_have_text("1")
    score_after_move = int(page.locator("#solo-score").inner_text())
    page.keyboard.press("Control+z")
    expect(page.locator("#solo-actions")).to_have_text("2")
    expect(redo).to_be_enabled()
    page.keyboard.press("Control+y")
    expect(page.locator("#solo-actions")).to_have_text("3")
    expect(redo).to_be_disabled()  # nothing more to redo
    # Undo and redo cost actions: the score never comes out higher.
    assert int(page.locator("#solo-score").inner_text()) < score_after_move
    page.keyboard.press("Control+z")
    expect(redo).to_be_enabled()
    page.keyboard.press("Control+Shift+Z")
    expect(page.locator("#solo-actions")).to_have_text("5")
    page.keyboard.press("Control+z")
    expect(page.locator("#solo-actions")).to_have_text("6")
    # A reload keeps what Redo had (it was lost: Redo off after every reload).
    page.reload()
    expect(page.locator(".tableau .column")).to_have_count(10)
    expect(redo).to_be_enabled()
    redo.click()
    expect(page.locator("#solo-actions")).to_have_text("7")
    # A new action forgets what was undone.
    page.keyboard.press("Control+z")
    expect(redo).to_be_enabled()
    page.keyboard.press(" ")  # deals a row: a new action
    expect(redo).to_be_disabled()

    # Give up: the result's share text names no card, says the suits, links the deal.
    page.locator("#give-up").click()
    page.locator("#confirm-giveup-yes").click()
    share = page.locator("#solo-share-text")
    expect(share).to_have_value(re.compile(
        r"^Spider Duel, deal 8, 1 suit: this one beat me\. Can you win it\?\n"
        r"Play it: http://127\.0\.0\.1:\d+/#/solo\?number=8&suits=1&solvable_only=1&relaxed=0$"))
    text = share.input_value()
    assert not re.search(r"\b(?:[2-9]|10|[AJQK])[♠♥♦♣]", text)
    page.locator("#copy-solo-share").click()
    assert page.evaluate("navigator.clipboard.readText()") == text
    # The game just given up can be watched again, from its first step.
    page.locator("#watch-replay").click()
    expect(page.locator("#replay-h")).to_have_text("Replay — ann")
    expect(page.locator("#replay-at")).to_have_text("Step 0 of 9")
    page.locator("#replay-back").click()
    expect(page.locator("#games .gamerow")).to_have_count(1)
