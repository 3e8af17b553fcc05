"""Solo and daily play through the browser against the real server (REST, WebSocket, the
solo services, the solver): a 1-suit deal won with a rescue and the auto-complete, and the
daily deal played by two players who then both stand on the day's board."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from app.engine.daily import daily_deal, daily_start, utc_day
from app.engine.view import player_view
from tests.support.sync_client import (
    Account,
    Pace,
    SyncClient,
    finish_by_rescues,
    play_solo_line,
    rescue_until_offered,
    signup,
)
from tests.web.conftest import LiveServer, pick
from tests.web.test_e2e import new_player, signed_in_page, top
from tests.web.test_solo import look


def rescue_until_auto_complete(page: Page, most: int = 150, *, finish: bool = True) -> None:
    """Rescue (R) again and again, each answer awaited, until the server offers the
    auto-complete (or ``most`` times); then, with ``finish``, play it. A rescue that finds
    nothing in its time budget offers "undo to the last winnable position": taken, as a
    player would."""
    page.emulate_media(reduced_motion="reduce")
    for _ in range(most):
        if page.locator("#auto-complete").count() or page.locator("#winner").count():
            break
        if page.locator("#undo-to-winnable").count():
            page.locator("#undo-to-winnable").click()
            # Any answer will do: back to a winnable position, or "none found in time"
            # (a busy machine), which leaves the actions as they were; either way the
            # buttons come back, and the loop rescues again.
            page.wait_for_function(
                """() => document.querySelector('#guide-offer #undo-to-winnable, #winner')
                    || document.querySelector('#rescue:not([disabled]), #auto-complete')""")
            continue
        before = page.locator("#solo-actions").inner_text()
        page.keyboard.press("r")
        if page.locator("#confirm-rescue").count():  # the game's first rescue asks
            page.locator("#confirm-rescue-yes").click()
        page.wait_for_function(
            """(before) => document.querySelector('#winner, #auto-complete, #undo-to-winnable')
                || (document.querySelector('#solo-actions')?.textContent !== before
                    && !document.querySelector('#rescue[disabled]'))""", arg=before)
    if not finish:
        return
    if page.locator("#auto-complete").count():
        page.locator("#auto-complete").click()
    expect(page.locator("#winner")).to_have_text("You won!")


def test_solo_one_suit_won_with_rescue_and_auto_complete(
        browser: Browser, app_server: LiveServer, artifacts: Path) -> None:
    page = new_player(browser, app_server, "soloist")
    page.set_viewport_size({"width": 1280, "height": 800})
    failed: list[str] = []  # no error answers (console noise) on the way in
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400
            else None)
    page.locator("#nav a[href='#/solo']").click()
    expect(page.locator("#start-solo")).to_be_visible()
    assert failed == []  # no game in progress: 200 null, not a 404
    pick(page.locator("input[name=suits][value='1']"))
    page.get_by_text("Deal number", exact=True).last.click()
    page.locator("#deal-number").fill("4242")
    page.locator("#start-solo").click()
    expect(page.locator(".soloplayer .name")).to_have_text("Deal #4242")
    expect(page.locator(".tableau .column")).to_have_count(10)

    # One move of mine by keyboard: the hint's move, with Enter right after it.
    page.keyboard.press("i")
    expect(page.locator(".statusline.hint")).to_contain_text("Hint:")
    page.keyboard.press("Enter")
    expect(page.locator("#solo-actions")).to_have_text("1")

    # The first rescue asks, is shown step by step, then says what it played and cost.
    page.locator("#rescue").click()
    page.locator("#confirm-rescue-yes").click()
    expect(page.locator(".statusline")).to_have_text(
        re.compile(r"Rescue: ([2-5] actions|1 action) played for you; "
                   r"a win now earns 250 points less\."),
        timeout=20_000)
    # One more by its key, then the rest over the player's own socket (each rescue
    # through the browser took ~2 s of a loaded machine, 20 of them most of this test;
    # the loop through the page is test_solo's, on the stand-in server), and the
    # auto-complete the server then offers is pressed here.
    rescue_until_auto_complete(page, most=1, finish=False)
    rescue_in_the_background(app_server, page, finish=False)
    page.reload()
    page.locator("#auto-complete").click()
    expect(page.locator("#winner")).to_have_text("You won!")
    # The badge listener's frame: a toast (for 6 s), and the badge on the sheet.
    expect(page.locator(".toast").filter(has_text="First win")).to_contain_text("Badge earned")
    expect(page.locator(".newbadges")).to_contain_text("First win")

    sheet = page.locator("#points-breakdown")
    expect(sheet).to_contain_text("Base (1 suit)")
    expect(sheet.locator("tr.cost")).to_contain_text("Rescues")
    expect(page.locator("#play-link")).to_have_value(re.compile(r"number=4242&suits=1&"))
    look(page, artifacts, "e2e-won")
    # The server agrees: a won 1-suit game, rescued and auto-completed.
    game = page.evaluate("""() => fetch('/api/solo/games/' + location.hash.split('/')[2],
        {headers: {Authorization: 'Bearer ' + localStorage.getItem('spider.token')}})
        .then((r) => r.json())""")
    assert game["status"] == "won" and game["rescues"] >= 1 and game["auto_completed"]
    assert game["points"] == game["points_breakdown"]["total"]
    # Fair play (docs/points.md): a rescued win is assisted; the result says so.
    assert game["assisted"] and game["assists"]["rescues"] >= 1
    expect(page.locator("#assisted")).to_contain_text("Assisted: ")
    # Player info: the solo win per suit count and the badge with its date.
    page.locator("#who a").click()
    one_suit = page.locator("#solo-stats tbody tr").first
    expect(one_suit).to_contain_text("1 suit")
    expect(one_suit.locator("td").nth(1)).to_have_text("1")  # wins
    expect(page.locator("#badges .medal:not(.locked)").first).to_contain_text("First win")
    expect(page.locator("#badges .medal:not(.locked)").first).to_contain_text("earned ")
    # An assisted win stays off the solo points board (a bot following rescues must not
    # top it); the player's own stats above still count it.
    page.goto("/#/leaderboards/solo")
    page.locator("label:has(#lb-suits-1)").click()
    expect(page.get_by_role("region", name="Solo points")).to_contain_text("Nobody here yet.")
    expect(page.locator("#lb-table")).to_have_count(0)


def win_daily_by_its_solution(server: LiveServer, who: Account) -> None:
    """Today's daily won over the WebSocket by the deal's verified win, no assist: a
    second player for the board, without a second browser playing (chromium is most of
    the web tests' CPU)."""
    with httpx.Client(base_url=server.url, timeout=60) as http:
        started = http.post("/api/daily/start", headers=who.auth)
        assert started.status_code == 201, started.text
        game_id = int(started.json()["id"])
        client = SyncClient.open(server.url.replace("http", "ws"), who)
        client.request({"type": "solo_open", "game_id": game_id}, "solo_snapshot")
        solution = daily_deal(utc_day(datetime.now(UTC))).solution
        play_solo_line(client, game_id, solution, Pace.of(server.settings))
        client.close()
        assert http.get(f"/api/solo/games/{game_id}").json()["status"] == "won"


def rescue_in_the_background(server: LiveServer, page: Page, *, finish: bool = True) -> None:
    """The game open on ``page`` rescued over a second socket of the same player until
    the server offers the auto-complete; with ``finish``, won by it there too."""
    token = page.evaluate("localStorage.getItem('spider.token')")
    game_id = int(page.evaluate("location.hash.split('/')[2].split('?')[0]"))
    with httpx.Client(base_url=server.url, timeout=60) as http:
        me = http.get("/api/players/me", headers={"Authorization": f"Bearer {token}"}).json()
        who = Account(me["id"], me["name"], token)
        client = SyncClient.open(server.url.replace("http", "ws"), who)
        pace = Pace.of(server.settings)
        if finish:
            finish_by_rescues(client, game_id, pace)
        else:
            rescue_until_offered(client, game_id, pace)
        client.close()
        game = http.get(f"/api/solo/games/{game_id}", headers=who.auth).json()
        status = game["status"]
        assert status == ("won" if finish else "playing")


def test_daily_deal_played_by_two_players_both_on_the_board(
        browser: Browser, app_server: LiveServer, artifacts: Path) -> None:
    with httpx.Client(base_url=app_server.url, timeout=60) as http:
        dusk = signup(http, "dusk")
    win_daily_by_its_solution(app_server, dusk)
    dawn = new_player(browser, app_server, "dawn")
    dawn.locator("#nav a[href='#/daily']").click()
    expect(dawn.locator("#board-locked")).to_be_visible()  # not before finishing
    dawn.locator("#play-daily").click()
    expect(dawn.locator(".soloplayer .name")).to_contain_text("Daily deal")
    # A rescue in the browser makes dawn's win assisted; the rest is rescued over dawn's
    # own socket (the whole loop through the browser is the 1-suit test's above: here it
    # took most of the test), and the page, reloaded, shows the win.
    dawn.locator("#rescue").click()
    dawn.locator("#confirm-rescue-yes").click()
    expect(dawn.locator(".statusline")).to_contain_text("Rescue:", timeout=20_000)
    rescue_in_the_background(app_server, dawn)
    dawn.reload()
    expect(dawn.locator("#winner")).to_have_text("You won!")
    # No link to rehearse today's daily (the server refuses it as a solo game today).
    expect(dawn.locator("#play-link-tomorrow")).to_contain_text("From tomorrow (UTC)")
    expect(dawn.locator("#play-link")).to_have_count(0)
    dawn.locator("#to-daily").click()
    expect(dawn.locator("#my-daily")).to_contain_text("You have played today's deal.")
    dusk_page = signed_in_page(browser, app_server, dusk, "/#/daily", motion=True)
    for page in (dawn, dusk_page):
        page.reload()
        rows = page.locator("#daily-table tbody tr")
        expect(rows).to_have_count(2)
        expect(page.locator("#daily-table")).to_contain_text("dawn")
        expect(page.locator("#daily-table")).to_contain_text("dusk")
        expect(page.locator("#daily-table tr.mine")).to_have_count(1)
        expect(page.locator("#daily-count")).to_have_text("2 played · 2 won")
        # Dawn won with rescues, so dawn is assisted (docs/points.md, "Fair play"): listed
        # and marked, ranked nowhere.
        expect(rows.locator(".assisted")).to_have_count(1)
        expect(page.locator("#daily-table tr.mine .assisted")).to_have_count(
            1 if page is dawn else 0)
    # The assisted day bridges the streak without growing it; the clean win starts one.
    expect(dawn.locator("#my-rank")).to_have_count(0)
    expect(dawn.locator("#streak-current")).to_have_text("0 days")
    # ... and says so: "1 won" beside "0 days" read as a mistake.
    expect(dawn.locator("#streak-assisted")).to_contain_text("adds no day to it")
    expect(dusk_page.locator("#my-rank")).to_be_visible()
    expect(dusk_page.locator("#streak-current")).to_have_text("1 day")
    expect(dusk_page.locator("#streak-assisted")).to_have_count(0)
    look(dawn, artifacts, "e2e-daily")
    # One attempt a day: the button is gone, and the server refuses a second start.
    expect(dawn.locator("#play-daily")).to_have_count(0)
    with httpx.Client(base_url=app_server.url, timeout=60) as http:
        again = http.post("/api/daily/start", headers=dusk.auth)
    assert again.status_code == 409, again.text


def test_daily_duel_two_players_meet_at_one_table(
        browser: Browser, app_server: LiveServer, artifacts: Path) -> None:
    first, second = [new_player(browser, app_server, name) for name in ("morn", "eve")]
    for page in (first, second):
        page.locator("#nav a[href='#/daily']").click()
        expect(page.locator("#daily-duel")).to_have_text("Find an opponent")
    first.locator("#daily-duel").click()
    first.wait_for_function("() => location.hash.startsWith('#/table/')")
    table = first.evaluate("location.hash")
    second.locator("#daily-duel").click()
    second.wait_for_function("() => location.hash.startsWith('#/table/')")
    assert second.evaluate("location.hash") == table  # matched: the same table
    for page in (first, second):  # the match is made for both: each opens their game
        expect(page.get_by_role("heading", name="Daily duel")).to_be_visible()
        page.locator("#start").click()
        expect(page.locator(".tableau .column")).to_have_count(10, timeout=20_000)
    # The cards of today's daily deal (the daily game's very start).
    start = player_view(daily_start(utc_day(datetime.now(UTC))))
    for column, cards in enumerate(start.columns):
        expect(top(second, column)).to_have_attribute("data-card", cards.up[-1])
    look(second, artifacts, "e2e-daily-duel")
    # Not the daily attempt: the daily game is still to be played, and the duel leads back.
    first.goto("/#/daily")
    expect(first.locator("#play-daily")).to_have_text("Play today's deal")
    expect(first.locator("#daily-duel")).to_have_text("Go to my daily duel")
    expect(first.locator("#daily-count")).to_have_text("0 played · 0 won")
