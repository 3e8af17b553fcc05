"""Two players in two browsers against the real server: invite by link, then a duel."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.web.conftest import LiveServer

INVITE_LINK = re.compile(r"/#/invite/[\w-]{20,}$")


def new_player(browser: Browser, server: LiveServer, name: str, path: str = "/") -> Page:
    context: BrowserContext = browser.new_context(base_url=server.url)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = context.new_page()
    page.goto(path)
    page.get_by_label("Choose your name").fill(name)
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#who")).to_have_text(name)
    return page


def invite_by_link(browser: Browser, server: LiveServer, artifacts: Path) -> tuple[Page, Page]:
    """Alice opens a private table and copies its link; Bob opens it and accepts."""
    alice = new_player(browser, server, "alice")
    expect(alice.get_by_role("heading", name="Lobby")).to_be_visible()
    alice.click("#invite-friend")
    dialog = alice.get_by_role("dialog")
    expect(dialog.get_by_label("Private")).to_be_checked()
    dialog.get_by_role("button", name="Create").click()
    expect(alice.locator("#invite-link")).to_have_value(INVITE_LINK)
    alice.click("#copy-link")
    expect(alice.get_by_role("main").get_by_role("status").last).to_have_text("Copied.")
    link = alice.evaluate("navigator.clipboard.readText()")
    assert link == alice.locator("#invite-link").input_value()
    alice.screenshot(path=artifacts / "e2e-invite.png")

    bob = new_player(browser, server, "bob", link.removeprefix(server.url))
    expect(bob.get_by_role("heading", name="alice invites you")).to_be_visible()
    bob.screenshot(path=artifacts / "e2e-invited.png")
    bob.click("#accept-invite")
    expect(bob.locator("#start")).to_be_visible()
    expect(bob.get_by_role("status").filter(has_text="alice is at the table")).to_be_visible()
    expect(alice.locator("#start")).to_be_visible()  # Alice's page notices Bob sat down
    expect(alice.get_by_role("status").filter(has_text="bob is at the table")).to_be_visible()
    return alice, bob


def test_invite_by_link_seats_both_players(browser: Browser, app_server: LiveServer,
                                           artifacts: Path) -> None:
    alice, bob = invite_by_link(browser, app_server, artifacts)
    alice.screenshot(path=artifacts / "e2e-ready.png")
    expect(bob.locator("#start")).to_be_enabled()
