"""Issue 24 in the browser, against the real server: today's daily board is not asked for
before my daily is over (no 403, no console error), and a badge toast keeps off a
result's heading and winner on a phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.conftest import LiveServer, photograph
from tests.web.test_e2e import new_player, seated_pair
from tests.web.test_flows import start_both, win


def watch_failures(page: Page) -> list[str]:
    """Every error answer and console error of ``page`` from now on."""
    failures: list[str] = []
    page.on("response", lambda r: failures.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)
    page.on("console", lambda m: failures.append(f"console: {m.text}")
            if m.type == "error" else None)
    return failures


def test_the_locked_daily_board_is_not_requested_before_my_daily_is_over(
        browser: Browser, app_server: LiveServer) -> None:
    page = new_player(browser, app_server, "early")
    failures = watch_failures(page)
    # Not played yet: the Daily page and the leaderboards' Daily tab say it is locked.
    page.locator("#nav a[href='#/daily']").click()
    expect(page.locator("#board-locked")).to_be_visible()
    page.goto("/#/leaderboards/today")
    expect(page.locator("#lb-locked")).to_be_visible()
    # Meanwhile the tab shows yesterday's board, which is public (nobody played it here).
    expect(page.locator("#lb-empty")).to_be_visible()
    yesterdays = page.locator("#lb-h").inner_text()
    # Playing it (in progress): still locked, still not asked for.
    page.goto("/#/daily")
    page.locator("#play-daily").click()
    expect(page.locator(".soloplayer .name")).to_contain_text("Daily deal")
    page.goto("/#/daily")
    expect(page.locator("#play-daily")).to_be_visible()
    expect(page.locator("#board-locked")).to_be_visible()
    page.locator("#prev-day").click()  # yesterday's board is public...
    expect(page.locator("#next-day")).to_be_enabled()
    page.locator("#next-day").click()  # ...and back to today's, locked
    expect(page.locator("#board-locked")).to_be_visible()
    page.goto("/#/leaderboards/today")
    expect(page.locator("#lb-locked")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert failures == []
    # Over (given up): the board opens, on both pages.
    page.goto("/#/daily")
    page.evaluate("""() => fetch('/api/daily', {headers: {Authorization: 'Bearer '
        + localStorage.getItem('spider.token')}}).then((r) => r.json()).then((d) =>
        fetch('/api/solo/games/' + d.my_game.id + '/abandon', {method: 'POST',
          headers: {Authorization: 'Bearer ' + localStorage.getItem('spider.token')}}))""")
    page.reload()
    expect(page.locator("#my-daily")).to_be_visible()
    expect(page.locator("#board-locked")).to_have_count(0)
    page.goto("/#/leaderboards/today")
    expect(page.locator("#lb-empty")).to_be_visible()
    expect(page.locator("#lb-locked")).to_have_count(0)
    expect(page.locator("#lb-h")).not_to_have_text(yesterdays)  # today's now
    assert failures == []



PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
MORE_BADGES = """async () => {
    const { badgeToast } = await import('/js/toast.js');
    for (const code of ['quick', 'lean'])
        badgeToast({code, title: code, description: code, earned_at: new Date().toISOString()});
}"""


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def toast_clear_of_the_result(page: Page) -> None:
    """Every toast box stays off the result's heading, its winner line and its buttons."""
    toasts = page.locator(".toast")
    expect(toasts.first).to_be_visible()
    # The heading's words, not its block (as wide as the column: beside it is free).
    covered = [page.evaluate("""() => {
        const range = document.createRange();
        range.selectNodeContents(document.querySelector('#result-h'));
        const r = range.getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height};
    }"""), page.locator("#winner").bounding_box()]
    buttons = page.locator(".result button:visible")
    covered += [buttons.nth(index).bounding_box() for index in range(buttons.count())]
    assert len(covered) > 3 and all(covered), covered
    for index in range(toasts.count()):
        box = toasts.nth(index).bounding_box()
        assert box is not None
        for target in covered:
            assert target is not None and not overlaps(box, target), (box, target)


@pytest.mark.parametrize("viewport", [PHONE, SMALL_PHONE, DESKTOP],
                         ids=["phone", "small-phone", "desktop"])
def test_a_badge_toast_keeps_off_the_result_heading_and_winner(
        browser: Browser, app_server: LiveServer, artifacts: Path,
        viewport: dict[str, int]) -> None:
    alice, bob = seated_pair(browser, app_server)
    alice.set_viewport_size(viewport)
    start_both(alice, bob)
    win(alice)  # first, so Alice wins: her first duel that counts earns a badge
    win(bob)
    expect(alice.locator("#winner")).to_have_text("Winner: alice")
    expect(alice.locator(".toast").first).to_contain_text("First duel")
    alice.evaluate(MORE_BADGES)  # badges often come several at once
    alice.wait_for_timeout(500)  # past the toast's slide-in
    name = {PHONE["height"]: "phone", SMALL_PHONE["height"]: "small-phone"}.get(
        viewport["height"], "desktop")
    photograph(alice, artifacts / f"toast-over-result-{name}.png")
    toast_clear_of_the_result(alice)
    # The badges of the moment share one toast (a stack of them covered the result), the
    # first named, then the others' discs and how many they are.
    expect(alice.locator(".toast")).to_have_count(1)
    expect(alice.locator(".toast .toastmore")).to_have_text("+2")
    expect(alice.locator(".toast .medal")).to_have_count(3)
    # A tap sends it away at once (no need to wait out its 6 seconds).
    alice.locator(".toast").first.click()
    expect(alice.locator(".toast").filter(has_text="First duel")).to_have_count(0)


def test_long_names_stay_inside_the_result_on_a_phone(
        browser: Browser, app_server: LiveServer, artifacts: Path) -> None:
    """Bug: a 20-letter name of one word ran out of its "Watch replay — …" button and of
    the panel on a phone, the button's icon outside it on the left."""
    long_one, other = "W" * 20, "Abcdefghijklmnopqrst"
    alice, bob = seated_pair(browser, app_server, names=(long_one, other))
    alice.set_viewport_size(PHONE)
    start_both(alice, bob)
    win(bob)
    win(alice)
    expect(alice.locator("#winner")).to_contain_text(other)
    alice.wait_for_timeout(300)
    photograph(alice, artifacts / "result-long-names-phone.png", full_page=True)
    panel = alice.locator(".result section.panel").first.bounding_box()
    assert panel is not None
    inside = [alice.locator(".result button:visible"), alice.locator(".result button .icon"),
              alice.locator(".legend li")]
    for boxes in inside:
        assert boxes.count() > 0
        for index in range(boxes.count()):
            box = boxes.nth(index).bounding_box()
            assert box is not None
            assert panel["x"] <= box["x"] and box["x"] + box["width"] <= (
                panel["x"] + panel["width"] + 0.5), (boxes, box, panel)
    assert alice.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
