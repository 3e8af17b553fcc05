"""The solver's waits at the solo table (issue 24): "Thinking…" with Cancel, and the hint's
"no win from here — undo to move N?" offer, against the solo stand-in (fake_solo.py).
Photographed at 1280 x 800 and 390 x 844 to tests/artifacts/solo-guide-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer
from tests.web.fake_solo import FakeSoloServer
from tests.web.test_solo import DESKTOP, PHONE, look, play_solo


@pytest.fixture
def solo(page: Page) -> FakeSoloServer:
    fake = FakeSoloServer()
    fake.install(page)
    return fake


def sent(solo: FakeSoloServer, kind: str) -> list[dict[str, object]]:
    return [m for m in solo.received if m["type"] == kind]


@pytest.mark.parametrize(("name", "size"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_thinking_cancel_and_the_undo_to_winnable_offer(
        page: Page, solo: FakeSoloServer, static_server: LiveServer, artifacts: Path,
        name: str, size: dict[str, int]) -> None:
    page.set_viewport_size(size)
    play_solo(page, static_server.url)
    actions = page.locator("#solo-actions")
    for count in ("1", "2", "3"):  # three hinted moves
        page.keyboard.press("i")
        expect(page.locator(".statusline.hint")).to_contain_text("Hint:")
        page.keyboard.press("Enter")
        expect(actions).to_have_text(count)

    # A search that takes a while: "Thinking…" with Cancel; Cancel stops it, nothing played.
    solo.hold_searches = True
    page.keyboard.press("i")
    thinking = page.locator("#guide-thinking")
    expect(thinking).to_contain_text("Thinking…")
    look(page, artifacts, f"guide-thinking-{name}")
    page.locator("#guide-cancel").click()
    expect(thinking).to_have_count(0)
    expect(page.locator(".statusline")).to_have_text("Cancelled: nothing was played.")
    assert len(sent(solo, "solo_cancel")) == 1
    solo.hold_searches = False

    # No win from here: the hint says so and offers to go back; one tap undoes there.
    solo.no_win_from = 1
    page.keyboard.press("i")
    offer = page.locator("#guide-offer")
    expect(offer).to_contain_text("No win from here — undo to move 1?")
    expect(page.locator("#undo-to-winnable")).to_have_text("Undo to move 1")
    look(page, artifacts, f"guide-offer-{name}")
    page.locator("#undo-to-winnable").click()
    expect(offer).to_have_count(0)
    expect(page.locator(".statusline")).to_have_text(
        "Back to move 1: a win is possible from here.")
    [asked] = sent(solo, "solo_undo_to_winnable")
    assert asked["seq"] == 4
    expect(actions).to_have_text("5")  # two undos, the player's own
    game = next(iter(solo.games.values()))
    assert game.by[-2:] == ["player", "player"] and game.undos == 2

    # The undo's own wait can be cancelled too.
    solo.no_win_from = 0
    page.keyboard.press("i")
    expect(page.locator("#undo-to-winnable")).to_have_text("Undo to the start")
    solo.hold_searches = True
    page.locator("#undo-to-winnable").click()
    expect(thinking).to_be_visible()
    page.locator("#guide-cancel").click()
    expect(page.locator(".statusline")).to_have_text("Cancelled: nothing was played.")
    expect(actions).to_have_text("5")
    expect(page.locator("#hint")).to_be_enabled()  # the table is the player's again
