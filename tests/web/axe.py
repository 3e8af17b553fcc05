"""axe-core scans (the engine ships inside axe-playwright-python)."""

import json
from typing import Any

from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe
from playwright.sync_api import Page

_AXE = Axe()


def serious(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations on the page as it is now.

    The engine (570 KB of script) is put into a page once, not before every scan as
    ``Axe.run`` does: a page scanned at several sizes parsed it again each time."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_AXE.axe_script)
    response = page.evaluate(f"axe.run(document, {json.dumps(DEFAULT_OPTIONS)})")
    assert response["passes"], "axe ran no rule"
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in response["violations"] if v["impact"] in ("serious", "critical")
    ]
