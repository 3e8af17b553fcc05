"""The accessibility scan itself: it finds what it should, and a second scan of the same
page (the engine put in once) sees the page as it is now."""

from playwright.sync_api import Page

from tests.web.axe import serious

BROKEN = """<!doctype html><html lang="en"><head><title>t</title></head>
<body><main><h1>t</h1><button id="b"></button><img id="i" src="data:,"></main></body></html>"""


def test_a_scan_finds_serious_faults_and_a_rescan_sees_them_fixed(page: Page) -> None:
    page.set_content(BROKEN)
    found = {v["id"] for v in serious(page)}
    assert {"button-name", "image-alt"} <= found, found
    page.evaluate("""() => { document.getElementById('b').textContent = 'Deal';
                             document.getElementById('i').alt = 'A card'; }""")
    assert serious(page) == []
