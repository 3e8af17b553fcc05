"""axe-core scans (the engine ships inside axe-playwright-python)."""

from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page


def serious(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations on the page as it is now."""
    response = Axe().run(page).response
    assert response["passes"], "axe ran no rule"
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in response["violations"] if v["impact"] in ("serious", "critical")
    ]
