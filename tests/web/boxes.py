"""Where an element sits on screen, once the board has stopped redrawing.

The board redraws every card when its size changes (a ResizeObserver), so a card found a
moment ago may already be replaced by its redrawn twin: Playwright then measures a detached
element and gets ``None``. Measure again until two readings agree."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import FloatRect, Locator, Page, expect


def settled_box(target: Locator, *, timeout: float = 5.0) -> FloatRect:
    expect(target).to_be_visible()
    deadline = time.monotonic() + timeout
    last: FloatRect | None = None
    while time.monotonic() < deadline:
        box = target.bounding_box()
        if box is not None and box == last:
            return box
        last = box
        target.page.wait_for_timeout(50)
    raise AssertionError(f"{target} never held still on screen (last box: {last})")


def press_while(page: Page, target: Locator, news: Callable[[], None]) -> None:
    """A finger down on `target`, the server's `news` arriving, the finger up: the tap
    must still reach the button (a redraw between down and up used to swallow it)."""
    box = settled_box(target)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    news()
    page.mouse.up()
