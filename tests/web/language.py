"""Switching the page's language as a player does, and waiting until it has switched.

French and German words load on demand (web/js/i18n.js): the page changes language once
they are in, a moment after the choice, and says so on ``<html lang>``."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def choose_language(page: Page, code: str) -> None:
    page.locator("#lang").select_option(code)
    expect(page.locator("html")).to_have_attribute("lang", code)
