"""Every error code the server can send has its sentence in English, French and German,
and a plain refusal is said as it is, not as "Something went wrong"."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, Route, expect

from tests.web.conftest import LiveServer
from tests.web.fake import FakeServer

APP = Path(__file__).resolve().parents[2] / "app"
# Where codes are written in the server: service errors (code="…" / code = "…"), protocol
# and WebSocket errors, rejections (and the duel core's refusals), problem documents
# and the HTTP status table.
CODE_PATTERNS = [
    r'\bcode\s*=\s*"([a-z_]+)"',
    r'\bcode\s*=\s*[^\n]*?\belse\s+"([a-z_]+)"',
    r'_error(?:_text)?\(\s*"([a-z_]+)"',
    r'frames\.error\(\s*"([a-z_]+)"',
    r'ProtocolError\(\s*"([a-z_]+)"',
    r'\breject\([^\n]*?"([a-z_]+)"',
    r'^\s*return\s+"([a-z_]+)",\s',  # the duel core's refusals: (code, message)
    r'\bproblem\(\s*\d+,\s*"([a-z_]+)"',
    r'\bRefuse\(\s*"([a-z_]+)"',  # the seat rule's refusals (app/rooms/seat_rule.py)
]
STATUS_TABLE = re.compile(r"_HTTP_CODES\s*=\s*\{(.*?)\}", re.S)


def server_codes() -> set[str]:
    codes: set[str] = set()
    for path in APP.rglob("*.py"):
        text = path.read_text()
        for pattern in CODE_PATTERNS:
            codes.update(re.findall(pattern, text, re.M))
        for table in STATUS_TABLE.findall(text):
            codes.update(re.findall(r'"([a-z_]+)"', table))
    return codes


def test_every_server_error_code_has_a_sentence_in_each_language(
        page: Page, static_server: LiveServer) -> None:
    codes = sorted(server_codes())
    # the scan finds what it must: rule refusals, protocol errors, REST problems
    assert {"bad_target", "undo_barrier", "stale_seq", "spectate_refused", "not_friend",
            "table_full", "validation_error", "internal_error", "not_found"} <= set(codes)
    page.goto(static_server.url + "/css/app.css")
    missing = page.evaluate("""async (codes) => {
      const i18n = await import('/js/i18n.js');
      const missing = [];
      for (const lang of ['en', 'fr', 'de']) {
        await i18n.setLang(lang);
        const unsaid = codes.filter((code) => !i18n.reason(code));
        missing.push(...unsaid.map((code) => `${lang}:${code}`));
      }
      return missing;
    }""", codes)
    assert missing == []


def test_refusals_are_said_plainly_and_unknown_codes_as_a_failure(
        page: Page, static_server: LiveServer) -> None:
    page.goto(static_server.url + "/css/app.css")
    said = page.evaluate("""async () => {
      const i18n = await import('/js/i18n.js');
      const out = {};
      for (const lang of ['en', 'fr', 'de']) {
        await i18n.setLang(lang);
        out[lang] = {
          known: i18n.problemText({ code: 'not_friend', message: 'Alice is not a friend' }),
          unknown: i18n.problemText({ code: 'brand_new', message: 'boom' }),
        };
      }
      return out;
    }""")
    assert said["fr"]["known"] == (
        "Ce joueur n'est pas dans votre liste d'amis ; ajoutez-le d'abord.")
    assert said["de"]["known"].startswith("Dieser Spieler ist nicht in deiner Freundesliste")
    assert said["en"]["known"].startswith("That player is not in your friend list")
    for lang, failure in (("en", "Something went wrong"), ("fr", "Un problème est survenu"),
                          ("de", "Etwas ist schiefgegangen")):
        assert not said[lang]["known"].startswith(failure)
        unknown = said[lang]["unknown"]
        assert unknown.startswith(failure) and unknown.endswith("boom"), unknown


def test_a_refused_request_is_told_in_the_page_language(page: Page,
                                                         static_server: LiveServer) -> None:
    """Add friend on someone already in the list: the answer in French, not in English."""
    FakeServer().install(page)
    page.add_init_script("localStorage.setItem('spider.lang', 'fr')")
    page.route("**/api/players/by-name/bob", lambda route: route.fulfill(json={
        "id": 2, "name": "bob", "since": "2026-11-01T09:00:00Z", "games_played": 3,
        "won": 1, "lost": 2, "drawn": 0, "streak": 0, "ratings": []}))

    def already(route: Route) -> None:
        if route.request.method != "POST":  # a list read before bob was added elsewhere
            route.fulfill(json={"items": [], "total": 0, "page": 1, "page_size": 100})
            return
        route.fulfill(status=409, json={
            "type": "/problems/already_friend", "title": "Conflict", "status": 409,
            "detail": "bob is already in your friend list", "code": "already_friend"})

    page.route("**/api/me/friends*", already)
    page.route("**/api/me/friend-requests*", lambda route: already(route) if
               route.request.method == "POST" else route.fulfill(json={"incoming": [],
                                                                       "outgoing": []}))
    page.goto(f"{static_server.url}/#/player/bob")
    page.click("#add-friend")
    expect(page.get_by_role("status")).to_have_text("Déjà dans votre liste d'amis.")
    expect(page.locator("#friend-state")).to_have_text("Amis ✓")  # the answer tells the state


def test_a_name_refused_before_sending_is_told_in_the_page_language(
        page: Page, static_server: LiveServer) -> None:
    """Bug: the name field's pattern let the browser refuse "1x" with its own bubble, in
    the browser's language ("Please match the requested format." on a German page)."""
    page.add_init_script("localStorage.setItem('spider.lang', 'de')")
    posted: list[str] = []
    page.route("**/api/players", lambda route: (posted.append(route.request.method),
                                                route.abort()))
    page.goto(static_server.url)
    page.get_by_label("Wähle deinen Namen").fill("1x")
    page.get_by_role("button", name="Spielen").click()
    expect(page.get_by_role("alert")).to_have_text(
        "3 bis 20 Buchstaben, Ziffern, - oder _, zuerst ein Buchstabe.")
    expect(page.get_by_label("Wähle deinen Namen")).to_have_value("1x")  # to correct it
    assert page.evaluate("document.querySelector('#name').validationMessage") != ""
    assert posted == []  # refused in the page, not sent
