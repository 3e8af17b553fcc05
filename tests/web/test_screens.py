"""Every screen drawn, photographed and scanned with axe (no serious or critical violation)."""

from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec
from playwright.sync_api import Page, Route, expect

from app.engine.actions import Action, Deal, Flip, Move, Undo
from app.engine.deal import deal
from app.engine.errors import IllegalAction
from app.engine.game import check, legal_actions, push
from app.engine.rules import preset
from app.engine.state import GameState
from app.engine.view import player_view
from app.wire.news import Invitation, InvitedGame, InviteEvent
from tests.web.axe import serious
from tests.web.conftest import LiveServer, photograph, pick
from tests.web.fake import MATCH_ID, ME, TABLE_ID, FakeServer

WEB = Path(__file__).resolve().parents[2] / "web"
FIRST_PAGE_BUDGET = 60_000  # bytes, gzipped: the JS and CSS the first page loads
ART_BUDGET = 80_000  # bytes, gzipped: every card image
STATIC_IMPORT = re.compile(r'^\s*(?:import|export)\b[^;()]*?from\s+"(\./[\w.-]+\.js)"', re.M)
ASSET = re.compile(r'(?:href|src)="/((?:js|css)/[\w./-]+)"')


def gzipped(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=6))  # a server's usual level


def first_page() -> set[Path]:
    """index.html's script and stylesheet, and every module they import statically;
    modules loaded with import() on demand are not part of the first page."""
    index = (WEB / "index.html").read_text()
    return static_closure([WEB / asset for asset in ASSET.findall(index)])


def static_closure(todo: list[Path]) -> set[Path]:
    """The files given and every module they import statically."""
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if path.suffix == ".js":
            todo += [path.parent / name for name in STATIC_IMPORT.findall(path.read_text())]
    return seen


def test_first_page_fits_the_budget() -> None:
    files = first_page()
    # The first page is the name screen or the lobby; the duel table loads on its route,
    # and in the background once the first screen is drawn (docs/web.md, "Budget").
    assert {WEB / "js/main.js", WEB / "css/app.css", WEB / "js/lobby.js"} <= files
    assert WEB / "js/board.js" not in files
    total = sum(gzipped(f) for f in files)
    table = static_closure([WEB / "js/table.js"]) - files
    assert WEB / "js/board.js" in table
    print(f"first page: {len(files)} files, {total} bytes gzipped; the duel table after it: "
          f"{len(table)} files, {sum(gzipped(f) for f in table)} bytes")
    assert total <= FIRST_PAGE_BUDGET, f"{total} bytes gzipped; the budget is {FIRST_PAGE_BUDGET}"


def test_card_art_fits_the_budget() -> None:
    art = list((WEB / "img").glob("*.svg"))
    assert {p.name for p in art} >= {"cards.svg", "back.svg"}
    total = sum(gzipped(f) for f in art)
    print(f"card art: {total} bytes gzipped")
    assert total <= ART_BUDGET, f"{total} bytes gzipped; the budget is {ART_BUDGET}"


def test_card_art_is_cached_by_etag(page: Page, static_server: LiveServer) -> None:
    url = f"{static_server.url}/img/cards.svg"
    first = page.request.get(url)
    assert first.ok and first.headers["content-type"].startswith("image/svg+xml")
    etag = first.headers["etag"]
    again = page.request.get(url, headers={"If-None-Match": etag})
    assert again.status == 304  # the browser keeps its copy


def test_client_is_served(page: Page, static_server: LiveServer) -> None:
    response = page.request.get(f"{static_server.url}/")
    assert response.ok and "<script type=\"module\" src=\"/js/main.js\">" in response.text()
    assert page.request.get(f"{static_server.url}/js/board.js").ok
    assert page.request.get(f"{static_server.url}/css/app.css").ok


def test_name_screen(page: Page, static_server: LiveServer, artifacts: Path) -> None:
    page.route("**/api/**", lambda route: route.fulfill(status=401, json={"status": 401}))
    page.goto(static_server.url)
    expect(page.get_by_label("Choose your name")).to_be_focused()
    photograph(page, artifacts / "name.png")
    assert serious(page) == []


def test_the_duel_table_loads_in_the_background_after_the_first_screen(
        page: Page, static_server: LiveServer) -> None:
    # Off the first page (the budget), yet fetched once the lobby is drawn: opening a
    # table then waits for no module.
    FakeServer().install(page)
    page.goto(static_server.url)
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()
    # Each module's entry comes when its own fetch ends (board.js's before those it imports).
    modules = ["/js/table.js", "/js/session.js", "/js/board.js", "/js/board-render.js"]
    page.wait_for_function("""(modules) => {
      const fetched = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname);
      return modules.every((m) => fetched.includes(m));
    }""", arg=modules)


def test_lobby_and_new_game_dialog(page: Page, static_server: LiveServer,
                                   artifacts: Path) -> None:
    FakeServer().install(page)
    page.goto(static_server.url)
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()
    expect(page.locator(".list a", has_text="bob")).to_be_visible()
    photograph(page, artifacts / "lobby.png", full_page=True)
    assert serious(page) == []
    page.click("#new-game")
    expect(page.get_by_role("dialog")).to_be_visible()
    photograph(page, artifacts / "lobby-new-game.png")
    assert serious(page) == []


def test_table_help_and_result_pass_axe(page: Page, static_server: LiveServer,
                                        artifacts: Path) -> None:
    fake = FakeServer()
    fake.install(page)
    page.goto(f"{static_server.url}/#/table/{TABLE_ID}")
    expect(page.locator(".tableau .column")).to_have_count(10)
    assert serious(page) == []
    page.locator(".tableau").click(position={"x": 5, "y": 5})
    page.keyboard.press("h")
    expect(page.get_by_role("dialog")).to_contain_text("Space: deal")
    photograph(page, artifacts / "help.png")
    assert serious(page) == []
    page.keyboard.press("Escape")
    page.click("#finish")
    page.click("#confirm-finish-yes")  # the page's own dialog
    expect(page.locator("#watching")).to_be_visible()
    assert serious(page) == []
    fake.match_over(my_score=3, their_score=1)
    expect(page.locator("#winner")).to_have_text("Winner: alice")
    assert serious(page) == []


def test_player_info(page: Page, static_server: LiveServer, artifacts: Path) -> None:
    fake = FakeServer()
    fake.install(page)
    page.route("**/api/players/by-name/bob", lambda route: route.fulfill(json={
        "id": 2, "name": "bob", "since": "2026-11-01T09:00:00Z", "games_played": 12,
        "won": 7, "lost": 4, "drawn": 1, "streak": 2,
        "ratings": [{"suits": 1, "rating": 1612.4, "rd": 80.0, "band": "intermediate",
                     "games": 12}],
    }))
    none = {"items": [], "total": 0, "page": 1, "page_size": 100}  # bob is no friend yet
    page.route("**/api/me/friends*", lambda route: route.fulfill(status=201, json={
        "id": 2, "name": "bob", "since": "2026-11-29T10:00:00Z", "online": True,
    }) if route.request.method == "POST" else route.fulfill(json=none))
    page.route("**/api/me/ignores*", lambda route: route.fulfill(json=none))
    page.route("**/api/me/friend-requests*", lambda route: route.fulfill(status=201, json={
        "status": "requested", "player": {"id": 2, "name": "bob",
                                          "since": "2026-11-29T10:00:00Z"},
    }) if route.request.method == "POST" else route.fulfill(json={"incoming": [],
                                                                  "outgoing": []}))
    page.goto(f"{static_server.url}/#/player/bob")
    expect(page.locator("dl.stats")).to_contain_text("1612 · Intermediate")
    expect(page.locator("#duel-streak")).to_have_text("2 wins in a row")  # not a bare "2"
    expect(page.locator("dl.stats")).to_contain_text("Nov 1, 2026")  # the dates' one style
    page.click("#add-friend")  # a request: friends are mutual (issue 25)
    expect(page.get_by_role("status")).to_have_text(
        "Request sent to bob; waiting for an answer.")
    expect(page.locator("#friend-state")).to_have_text("Friend request sent")
    expect(page.locator("#withdraw-friend")).to_be_focused()
    photograph(page, artifacts / "player.png")
    assert serious(page) == []


def engine_code(state: GameState, action: Action) -> str | None:
    try:
        check(state, action)
    except IllegalAction as error:
        return error.code
    return None


def test_client_rules_agree_with_the_engine(page: Page, static_server: LiveServer) -> None:
    """The client's legality mirror gives the engine's verdict on every move, deal, flip."""
    rng = random.Random(6)
    cases = []
    for preset_name, suits in (("duel", 2), ("classic", 1), ("relaxed", 4)):
        rules = preset(preset_name, suits)
        state = deal(rng.randint(1, 10**6), rules)
        for _ in range(60):
            moves = [
                Move(src, dst, count)
                for src in range(10) for dst in range(-1, 11) for count in range(0, 5)
            ]
            cases.append({
                "view": msgspec.to_builtins(player_view(state)), "rules": rules.to_json(),
                "moves": [[m.src, m.dst, m.count, engine_code(state, m)] for m in moves],
                "deal": engine_code(state, Deal()),
                "flips": [engine_code(state, Flip(col)) for col in range(10)],
            })
            choices = [a for a in legal_actions(state) if not isinstance(a, Undo)]
            if not choices:
                break
            state = push(state, rng.choice(choices))
    page.goto(static_server.url + "/css/app.css")
    # As one JSON text, parsed in the page: Playwright serialises a nested argument value
    # by value, and the ~3 MB of cases took most of this test that way.
    disagreements = page.evaluate(
        """(text) => import('/js/rules.js').then((r) => JSON.parse(text).flatMap((c) => {
          const rules = r.resolveRules(c.rules);
          const out = [];
          for (const [from, to, count, code] of c.moves) {
            const mine = r.moveProblem(c.view, rules, from, to, count);
            if (mine !== code) out.push(["move", from, to, count, code, mine]);
          }
          const deal = r.dealProblem(c.view, rules);
          if (deal !== c.deal) out.push(["deal", c.deal, deal]);
          c.flips.forEach((code, col) => {
            const mine = r.flipProblem(c.view, rules, col);
            if (mine !== code) out.push(["flip", col, code, mine]);
          });
          return out;
        }))""",
        json.dumps(cases),
    )
    assert len(cases) > 100
    assert disagreements[:10] == []


def test_new_game_dialog_offers_four_suits_and_a_difficulty(
        page: Page, static_server: LiveServer) -> None:
    fake = FakeServer()
    fake.tables = [{"id": 31, "owner_id": 9, "owner_name": "carol", "preset": "duel",
                    "suits": 4, "time_limit_seconds": 600, "level": "any",
                    "difficulty": "hard", "public": True, "rated": True, "status": "open",
                    "seats": [{"player_id": 9, "name": "carol", "seat": 0}]}]
    fake.install(page)
    created: list[dict[str, object]] = []

    def create(route: Route) -> None:
        if route.request.method != "POST":
            route.fallback()
            return
        created.append(route.request.post_data_json)
        route.fulfill(status=201, json={**fake.tables[0], "id": 32, "owner_id": 1})

    page.route("**/api/tables", create)
    page.goto(static_server.url)
    # An open table of another player says its difficulty beside its suit count.
    expect(page.locator(".tables li", has_text="carol")).to_contain_text("Hard")
    page.click("#new-game")
    dialog = page.get_by_role("dialog")
    pick(dialog.locator("input[name=suits][value='4']"))
    dialog.get_by_label("Difficulty").select_option("hard")
    expect(dialog.locator("#difficulty-help")).to_contain_text("solvable")
    dialog.get_by_role("button", name="Create").click()
    page.wait_for_function("() => !document.querySelector('dialog[open]')")
    assert created and created[0]["suits"] == 4 and created[0]["difficulty"] == "hard"


def test_the_help_closes_when_the_address_changes(page: Page, static_server: LiveServer) -> None:
    """Bug: the help dialog stayed open over the next screen after a new address."""
    fake = FakeServer()
    fake.install(page)
    page.goto(f"{static_server.url}/#/table/{TABLE_ID}")
    expect(page.locator(".tableau .column")).to_have_count(10)
    page.locator("#help-open").click()
    expect(page.locator("#help")).to_be_visible()
    page.evaluate("location.hash = '#/'")
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()
    expect(page.locator("#help")).to_be_hidden()


def test_german_undo_is_not_back_and_its_key_is_strg(page: Page,
                                                     static_server: LiveServer) -> None:
    """"Zurück" named both Undo and Back; the key hint said "Ctrl Z" on German keyboards."""
    page.add_init_script("localStorage.setItem('spider.lang', 'de')")
    fake = FakeServer()
    fake.install(page)
    page.goto(f"{static_server.url}/#/table/{TABLE_ID}")
    undo = page.locator("#undo")
    expect(undo).to_have_text("Rückgängig")
    expect(undo).to_have_attribute("data-key", "Strg Z")


def test_a_losing_streak_is_said_in_words(page: Page, static_server: LiveServer) -> None:
    """The tester saw "SÉRIE -1" on a French player page."""
    page.add_init_script("localStorage.setItem('spider.lang', 'fr')")
    fake = FakeServer()
    fake.install(page)
    none = {"items": [], "total": 0, "page": 1, "page_size": 100}
    page.route("**/api/me/friends*", lambda route: route.fulfill(json=none))
    page.route("**/api/me/ignores*", lambda route: route.fulfill(json=none))
    def bob(streak: int) -> Callable[[Route], None]:
        return lambda route: route.fulfill(json={
            "id": 2, "name": "bob", "since": "2026-11-01T09:00:00Z", "games_played": 3,
            "won": 0, "lost": 3, "drawn": 0, "streak": streak, "ratings": []})

    for streak, said in ((-1, "1 défaite"), (-3, "3 défaites de suite"), (0, "—")):
        page.route("**/api/players/by-name/bob", bob(streak))
        page.goto(f"{static_server.url}/#/player/bob")
        page.reload()
        expect(page.locator("#duel-streak")).to_have_text(said)
        page.unroute("**/api/players/by-name/bob")


def test_a_table_i_am_not_at_says_so(page: Page, static_server: LiveServer,
                                     artifacts: Path) -> None:
    """Bug: carol, opening a table where bob and dave play, got the seated player's
    screen: "bob is at the table. Your clock starts when you open your game" with a Start
    that did nothing; on a table with a free seat, the waiting screen asked for an
    invitation link (refused: 403). She is told she is not at the table; a free seat
    may be taken."""
    fake = FakeServer()
    fake.seats = [
        {"seat": 0, "player_id": 2, "name": "bob", "wants_new_game": False},
        {"seat": 1, "player_id": 4, "name": "dave", "wants_new_game": False},
    ]
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    fake.install(page)
    page.goto(f"{static_server.url}/#/table/{TABLE_ID}")
    expect(page.locator("#outsider")).to_have_text(
        "You are not at this table: bob and dave are playing. Their games can be watched "
        "once both are over, from their player pages.")
    expect(page.locator("#start")).to_have_count(0)
    expect(page.locator(".tableau")).to_have_count(0)
    expect(page.locator("#to-lobby")).to_be_visible()
    assert serious(page) == []
    photograph(page, artifacts / "table-outsider.png")
    assert posted == [], posted  # nothing asked for in my name
    assert not any(f["type"] == "open_game" for f in fake.received), fake.received

    # A table with a seat free: I may sit down, as from the lobby.
    fake.seats = fake.seats[:1]
    fake.table_changes = {"status": "open", "match_id": None, "match_status": None}
    page.reload()
    expect(page.locator("#outsider")).to_have_text(
        "You are not at this table; a seat is free (bob is there).")
    with page.expect_request(f"**/api/tables/{TABLE_ID}/join") as joined:
        page.click("#join-here")
    assert joined.value.method == "POST"


def test_neither_player_started_nothing_to_watch(page: Page, static_server: LiveServer) -> None:
    """Bug: past my start deadline the ready screen still said "bob is at the table. Your
    clock starts when you open your game", and offered "Watch bob" although bob never
    started either (it led to a "Draw" of two games never played)."""
    fake = FakeServer()
    fake.install(page)
    page.route(f"**/api/matches/{MATCH_ID}", lambda route: route.fulfill(json={
        "match_id": MATCH_ID, "table_id": TABLE_ID, "status": "playing", "winner_id": None,
        "start_deadline": "2026-11-29T10:00:00Z",
        "games": [{"player_id": seat["player_id"], "status": "did_not_start", "score": 0,
                   "time_used_ms": 0, "started_at": None, "rating_before": None,
                   "rating_after": None} for seat in fake.seats]}))
    page.goto(f"{static_server.url}/#/table/{TABLE_ID}")
    expect(page.locator("#start-by")).to_have_text(
        "You did not start in time: your game is lost.")
    expect(page.get_by_text("Your clock starts when you open your game")).to_have_count(0)
    expect(page.locator("#start")).to_have_count(0)  # nothing to watch
    expect(page.locator("#to-lobby")).to_be_visible()


def test_the_lobby_names_who_sits_at_a_table_not_an_owner_who_left(
        page: Page, static_server: LiveServer) -> None:
    """Bug: after alice left a table at a result while bob stayed, the lobby listed it with
    host "alice" and, to alice, her own "Table" button: it names bob, and she may join."""
    fake = FakeServer()
    fake.tables = [{"id": 31, "owner_id": 1, "owner_name": "alice", "preset": "duel",
                    "suits": 1, "time_limit_seconds": 600, "level": "any",
                    "public": True, "rated": True, "status": "open",
                    "seats": [{"player_id": 2, "name": "bob", "seat": 1}]}]
    fake.install(page)
    page.goto(static_server.url)
    row = page.locator(".tables li", has_text="bob")
    expect(row).to_be_visible()
    expect(row.get_by_role("button", name="Join — bob")).to_have_text("Join")
    expect(page.locator(".tables li", has_text="alice")).to_have_count(0)


def test_a_declined_invitation_is_said_at_the_waiting_table(
        page: Page, static_server: LiveServer) -> None:
    """Bug: alice's waiting table went on saying "Invitation sent to bob." after bob had
    declined it: the server tells her now, and the table says so."""
    fake = FakeServer()
    fake.seats = fake.seats[:1]
    fake.table_changes = {"status": "open", "match_id": None, "match_status": None}
    fake.install(page)
    page.goto(f"{static_server.url}/#/table/{TABLE_ID}")
    expect(page.get_by_role("heading", name="Invite a friend")).to_be_visible()
    sent_at = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
    fake.push(fake.socket, InviteEvent(Invitation(
        code="c" * 20, table_id=TABLE_ID, inviter_id=ME["id"], inviter_name=ME["name"],
        invitee_id=2, invitee_name="bob", kind="direct", status="declined",
        created_at=sent_at, expires_at=sent_at + timedelta(days=1), table=None,
        game=InvitedGame(preset="duel", suits=1, time_limit_seconds=600, rated=True))))
    expect(page.get_by_role("region", name="Invite a friend").get_by_role("status")).to_have_text(
        "bob declined your invitation.")
