"""The table as players see it, at four screen sizes: lobby, a real deal in mid-game (two
suits), spectating and the result — photographed into tests/artifacts/ and measured: the
board fills the screen, nothing overflows sideways, cards and their tap strips are big
enough for a finger on a phone."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from app.wire.duel import MatchResult, PlayerResult
from tests.web.axe import serious
from tests.web.conftest import LiveServer, photograph
from tests.web.fake import MATCH_ID, REVEALED_DEAL, TABLE_ID, FakeServer, midgame
from tests.web.language import choose_language

SCREENS = {
    "1280x800": {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"},
    "1920x1080": {"viewport": {"width": 1920, "height": 1080}, "reduced_motion": "reduce"},
    "390x844": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
                "reduced_motion": "reduce"},
    "844x390": {"viewport": {"width": 844, "height": 390}, "has_touch": True, "is_mobile": True,
                "reduced_motion": "reduce"},
}
PHONES = ("390x844", "844x390")
DEAL_NUMBER = 80_317  # any generator deal: the position comes from playing it

OPEN_TABLES = [
    {"id": 21, "owner_id": 5, "owner_name": "Margaux", "preset": "duel", "suits": 2,
     "time_limit_seconds": 600, "level": "intermediate", "public": True, "rated": True},
    {"id": 22, "owner_id": 6, "owner_name": "Jonas_K", "preset": "duel", "suits": 1,
     "time_limit_seconds": 300, "level": "any", "public": True, "rated": False},
    {"id": 23, "owner_id": 7, "owner_name": "Ines", "preset": "duel", "suits": 2,
     "time_limit_seconds": 1200, "level": "expert", "public": True, "rated": True},
]


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[tuple[str, Page]]:
    context = browser.new_context(**SCREENS[request.param])
    yield request.param, context.new_page()
    context.close()


def shot(page: Page, artifacts: Path, name: str, size: str) -> None:
    page.wait_for_timeout(300)  # let slides and the art settle
    photograph(page, artifacts / f"look-{name}-{size}.png")


def no_sideways_overflow(page: Page) -> None:
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > innerWidth + 1
        && !el.closest('.sprite, .sr, dialog:not([open])'))
      .map((el) => el.className || el.tagName).slice(0, 5)""")
    assert wide == []
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def settle_layout(page: Page) -> None:
    """Wait (a few seconds at most) until the board's ResizeObserver has laid the cards
    out for the final felt size: the header (nav, "my game" pill) may still grow after
    the first render, and a module loaded on demand may add a line above the felt. A board
    that never fits is caught by the assertion that follows."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_load_state("networkidle", timeout=5_000)
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function("""() => {
          const tableau = document.querySelector('.tableau');
          return tableau && tableau.scrollHeight <= tableau.clientHeight + 1;
        }""", timeout=5_000)


def board_figures(page: Page) -> dict[str, Any]:
    """Card width, corner index height, the smallest strip of a face-up card under another,
    and whether the tableau needs scrolling."""
    # Measured after two frames: a change of the felt's size made by the task before
    # (a line added above it) is laid out again by the board's ResizeObserver only at the
    # next frame, and a measure taken in between saw the old cards in the new felt.
    return page.evaluate("""async () => {
      for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
      const tableau = document.querySelector('.tableau');
      const cards = [...tableau.querySelectorAll('.card.face')];
      const strips = [];
      for (const column of tableau.querySelectorAll('.column')) {
        const ups = [...column.querySelectorAll('.card.face')];
        for (let i = 0; i + 1 < ups.length; i++) {
          strips.push(ups[i + 1].getBoundingClientRect().top - ups[i].getBoundingClientRect().top);
        }
      }
      return {
        width: cards[0].getBoundingClientRect().width,
        index: Math.min(...cards.map((c) => c.querySelector('.ix').getBoundingClientRect().height)),
        strip: Math.min(...strips),
        scrolls: tableau.scrollHeight > tableau.clientHeight + 1,
        boardBottom: tableau.getBoundingClientRect().bottom,
      };
    }""")


def test_lobby(screen: tuple[str, Page], static_server: LiveServer, artifacts: Path) -> None:
    size, page = screen
    fake = FakeServer()
    fake.tables = OPEN_TABLES
    fake.install(page)
    page.goto(static_server.url)
    expect(page.locator(".tables li")).to_have_count(3)
    no_sideways_overflow(page)
    shot(page, artifacts, "lobby", size)
    assert serious(page) == []


def open_mid_game(page: Page, server: LiveServer, opponent_actions: int = 45) -> FakeServer:
    """My table on the real deal in mid-game; the opponent's game a little further on."""
    fake = FakeServer(start=midgame(DEAL_NUMBER))
    fake.opponent_game = FakeServer(start=midgame(DEAL_NUMBER, actions=opponent_actions)).game
    fake.install(page)
    page.goto(f"{server.url}/#/table/{TABLE_ID}")
    expect(page.locator(".tableau .column")).to_have_count(10)
    return fake


def test_table_mid_game(screen: tuple[str, Page], static_server: LiveServer,
                        artifacts: Path) -> None:
    size, page = screen
    fake = open_mid_game(page, static_server)
    expect(page.locator(".stock .pile")).to_have_count(fake.game.state.deals_left)
    settle_layout(page)
    figures = board_figures(page)
    no_sideways_overflow(page)
    assert not figures["scrolls"], figures  # the longest column fits
    assert figures["index"] >= 12
    if size == "390x844":
        assert figures["width"] >= 36
    if size in PHONES:
        assert figures["strip"] >= 24
    else:  # the board fills the window: its bottom is near the window's
        assert figures["boardBottom"] > page.viewport_size["height"] - 40  # type: ignore[index]
    shot(page, artifacts, "table", size)
    assert serious(page) == []


def test_spectating_and_result(screen: tuple[str, Page], static_server: LiveServer,
                               artifacts: Path) -> None:
    size, page = screen
    fake = open_mid_game(page, static_server, opponent_actions=70)
    page.click("#finish")
    page.click("#confirm-finish-yes")
    expect(page.locator("#watching")).to_be_visible()
    expect(page.locator("#leave")).to_be_visible()  # Finish has become Leave
    no_sideways_overflow(page)
    shot(page, artifacts, "spectating", size)
    assert serious(page) == []
    fake.match_over(my_score=187, their_score=212)
    expect(page.locator("#winner")).to_be_visible()
    no_sideways_overflow(page)
    shot(page, artifacts, "result", size)
    assert serious(page) == []


def test_other_screens_fit_a_phone(browser: Browser, static_server: LiveServer,
                                   artifacts: Path) -> None:
    """The name screen, the New game dialog, the help and player info on a phone."""
    for size in PHONES:
        context = browser.new_context(**SCREENS[size])
        page = context.new_page()
        page.route("**/api/**", lambda route: route.fulfill(status=401, json={"status": 401}))
        page.goto(static_server.url)
        expect(page.get_by_label("Choose your name")).to_be_visible()
        # Bug: Solo, Daily and Leaderboards showed before a name, each leading back here.
        expect(page.locator("#nav")).to_be_hidden()
        # The language menu by its code where the header is narrow ("Engl", "Deut" were
        # all that showed of the names), by its name elsewhere.
        narrow = SCREENS[size]["viewport"]["width"] <= 480  # type: ignore[index]
        expect(page.locator("#lang option:checked")).to_have_text("EN" if narrow else "English")
        no_sideways_overflow(page)
        shot(page, artifacts, "name", size)
        page.unroute("**/api/**")
        FakeServer().install(page)
        page.route("**/api/players/by-name/bob", lambda route: route.fulfill(json={
            "id": 2, "name": "bob", "since": "2026-11-01T09:00:00Z", "games_played": 12,
            "won": 7, "lost": 4, "drawn": 1, "streak": 2,
            "ratings": [{"suits": 2, "rating": 1612.4, "rd": 80.0, "band": "intermediate",
                         "games": 12}]}))
        page.goto(f"{static_server.url}/#/player/bob")
        page.reload()  # signed in now (the fake's token)
        expect(page.locator("dl.stats")).to_contain_text("Intermediate")
        no_sideways_overflow(page)
        shot(page, artifacts, "player", size)
        page.goto(f"{static_server.url}/#/")
        page.click("#new-game")
        expect(page.get_by_role("dialog")).to_be_visible()
        no_sideways_overflow(page)
        # Its buttons in sight without scrolling: the dialog's edge cut them in two, with
        # nothing saying that the form scrolls (the rest of the form scrolls under them).
        height = SCREENS[size]["viewport"]["height"]  # type: ignore[index]
        for button in page.get_by_role("dialog").locator(".row.end button").all():
            box = button.bounding_box()
            assert box is not None and box["y"] + box["height"] <= height - 8, (size, box)
        shot(page, artifacts, "new-game", size)
        assert serious(page) == []
        # In German each suit count stays on one line ("4 Farben" wrapped under its pips).
        page.keyboard.press("Escape")
        choose_language(page, "de")
        page.click("#new-game")
        wrapped = page.evaluate("""() => [...document.querySelectorAll('dialog .seg label')]
          .filter((label) => {
            const walk = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
            const boxes = [];
            while (walk.nextNode()) {
              const r = document.createRange(); r.selectNodeContents(walk.currentNode);
              boxes.push(...[...r.getClientRects()].filter((b) => b.width > 0));
            }
            const tall = Math.max(...boxes.map((b) => b.bottom))
              - Math.min(...boxes.map((b) => b.top));
            return tall > 1.8 * parseFloat(getComputedStyle(label).fontSize); })
          .map((label) => label.textContent)""")
        assert wrapped == [], (size, wrapped)
        no_sideways_overflow(page)
        spilled = page.evaluate("""() => [...document.querySelectorAll('dialog .seg')]
          .filter((seg) => seg.scrollWidth > seg.clientWidth + 1).length""")
        assert spilled == 0, size  # nor out of their row
        shot(page, artifacts, "new-game-de", size)
        context.close()


@pytest.mark.parametrize("lang", ["de", "fr", "en"])
def test_result_table_fits_a_phone_in_every_language(browser: Browser, static_server: LiveServer,
                                                     artifacts: Path, lang: str) -> None:
    """Bug: in German on a 390 px phone the result's headers ran together
    ("SPIELENDEWERTUNGSÄNDERUNG"), were clipped, and the page scrolled sideways (431 px)."""
    for size in PHONES:
        context = browser.new_context(**SCREENS[size])
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('spider.lang', '{lang}')")
        fake = FakeServer()
        fake.seats[1]["name"] = "Maximilian_Schmidt"  # a long name (20 is the most)
        fake.install(page)
        page.goto(f"{static_server.url}/#/table/{TABLE_ID}")
        expect(page.locator(".tableau .column")).to_have_count(10)
        page.click("#finish")
        page.click("#confirm-finish-yes")
        expect(page.locator("#watching")).to_be_visible()
        # The longest words of each column: "did not start", "too short to rate".
        fake.push(fake.socket, MatchResult(
            MATCH_ID, 1,
            [PlayerResult(1, "alice", 187, 65_000, "timed_out", None, None),
             PlayerResult(2, "Maximilian_Schmidt", -4, 600_000, "did_not_start", None, None)],
            REVEALED_DEAL))
        expect(page.locator("#winner")).to_be_visible()
        page.wait_for_timeout(200)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), (
            size, page.evaluate("document.documentElement.scrollWidth"))
        no_sideways_overflow(page)
        cells = page.evaluate("""() => [...document.querySelectorAll('.result .scoresheet tr')]
          .map((row) => [...row.children].map((c) => {
            const b = c.getBoundingClientRect();
            return {text: c.textContent, left: b.left, right: b.right,
                    fits: c.scrollWidth <= c.clientWidth + 1};
          }))""")
        heads = cells[0]
        assert len(heads) == 5
        for row in cells:
            assert all(c["fits"] for c in row), (size, [c["text"] for c in row if not c["fits"]])
        # Each header inside its own column: none runs into the next.
        assert all(a["right"] <= b["left"] + 0.5 for a, b in itertools.pairwise(heads)), heads
        heads_text = page.evaluate("""() => [...document.querySelectorAll('.result thead th')]
          .map((th) => { const r = document.createRange(); r.selectNodeContents(th);
            const box = r.getBoundingClientRect(), cell = th.getBoundingClientRect();
            return box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5; })""")
        assert all(heads_text), heads_text  # the words themselves stay inside their cell
        # ... and whole: a head breaks between its words only ("SCOR|E", "PUN|KTE" did),
        # or where a soft hyphen offers it ("Wertungs-änderung").
        broken = page.evaluate("""() => [...document.querySelectorAll('.result thead th')]
          .filter((th) => { const r = document.createRange(); r.selectNodeContents(th);
            const lines = new Set([...r.getClientRects()].map((b) => Math.round(b.top)));
            return lines.size > th.textContent.trim().split(/[\\s\\u00ad]+/).length; })
          .map((th) => th.textContent)""")
        assert broken == [], (size, broken)
        shot(page, artifacts, f"result-{lang}", size)
        context.close()



def small_controls(page: Page) -> list[dict[str, Any]]:
    """Every visible control (button, link, select, field) narrower or lower than 44 px, a
    finger's. Cards are not in the list: ten columns on a 390 px phone leave 36 px each
    (their strips are measured by board_figures)."""
    return page.evaluate("""() => [...document.querySelectorAll(
        'button, a[href], select, input, [role=button]:not(.card):not(.slot)')]
      .filter((el) => el.checkVisibility() && !el.closest('.sr, .skip, dialog:not([open])'))
      .map((el) => { const r = el.getBoundingClientRect();
        return { what: el.id || el.className || el.tagName,
                 w: Math.round(r.width), h: Math.round(r.height) }; })
      .filter((c) => Math.min(c.w, c.h) < 44)""")


def fill(page: Page) -> dict[str, float]:
    """How much of the felt (the tableau's box: the room the board has) the cards use:
    `box`, their bounding box over the felt; `covered`, the felt under some card (their
    union, sampled every 4 px) — what a player sees as empty felt."""
    return page.evaluate("""() => {
      const felt = document.querySelector('.tableau').getBoundingClientRect();
      const cards = [...document.querySelectorAll('.tableau .card')]
        .map((c) => c.getBoundingClientRect());
      const width = Math.max(...cards.map((r) => r.right)) - Math.min(...cards.map((r) => r.left));
      const height = Math.max(...cards.map((r) => r.bottom)) - Math.min(...cards.map((r) => r.top));
      let hit = 0, all = 0;
      for (let y = felt.top + 2; y < felt.bottom; y += 4) {
        for (let x = felt.left + 2; x < felt.right; x += 4) {
          all++;
          if (cards.some((r) => x >= r.left && x < r.right && y >= r.top && y < r.bottom)) hit++;
        }
      }
      const box = (width * height) / (felt.width * felt.height);
      return { box, covered: hit / all, card: cards[0].width };
    }""")


def test_the_cards_fill_the_felt(screen: tuple[str, Page], static_server: LiveServer,
                                 artifacts: Path) -> None:
    """Issue 25: cards sized by the width only left 40-50 % of the felt empty at mid-game
    (covered 0.59, 0.61, 0.27 and 0.55 at these four sizes); the columns now open up to
    the felt's height, the longest one still fitting, and a phone's controls are 44 px."""
    size, page = screen
    open_mid_game(page, static_server)
    settle_layout(page)
    figures = fill(page)
    small = small_controls(page) if size in PHONES else []
    print(f"{size}: box {figures['box']:.2f}, covered {figures['covered']:.2f}, "
          f"card {figures['card']:.0f} px, controls under 44 px: {small}")
    shot(page, artifacts, "fill", size)
    assert not board_figures(page)["scrolls"]
    assert figures["box"] >= 0.8
    # An upright phone's cards are as wide as ten columns allow: its felt stays tallest.
    assert figures["covered"] >= (0.42 if size == "390x844" else 0.66)
    assert small == [], small


@pytest.mark.parametrize("size", PHONES)
def test_the_lobby_is_a_finger_s(size: str, browser: Browser, static_server: LiveServer) -> None:
    context = browser.new_context(**SCREENS[size])
    page = context.new_page()
    fake = FakeServer()
    fake.tables = OPEN_TABLES
    fake.install(page)
    page.goto(static_server.url)
    expect(page.locator(".tables li")).to_have_count(3)
    small = small_controls(page)
    context.close()
    assert small == [], small
