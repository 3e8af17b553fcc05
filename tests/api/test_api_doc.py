"""docs/api.md names every code a REST answer can carry, and no other, and says the limits
with the values the code uses (docs/protocol.md: tests/api/test_protocol_doc.py)."""

import ast
import re
from pathlib import Path

import pytest
from fastapi import FastAPI

from app.api.problems import _HTTP_CODES
from app.api.routes.common import GUARDED_CODES
from app.errors import SpiderError
from app.services.paging import MAX_PAGE_SIZE
from app.services.players import NAME_MAX, NAME_MIN
from app.settings import Settings
from tests.api.test_protocol_doc import subclasses

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "api.md").read_text()
# Where REST refusals are raised: the services, the routes and their helpers, the family.
REST_SOURCES = [*(ROOT / "app" / "services").glob("*.py"), *(ROOT / "app" / "api" / "routes")
                .glob("*.py"), *(ROOT / "app" / "api").glob("[a-z]*.py"),
                ROOT / "app" / "errors.py"]
WS_ONLY = {"api/ws.py", "api/limits.py", "api/protocol.py", "api/protocol_base.py",
           "api/protocol_solo.py", "api/solo_ws.py", "api/solo_live.py"}
OF_THE_FRAMEWORK = {"validation_error", "internal_error", *_HTTP_CODES.values()}


def _codes_in(source: Path, families: set[str]) -> set[str]:
    """``code = "…"`` of the classes and ``code="…"`` of the raises in one module."""
    codes = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.ClassDef) and {getattr(b, "id", getattr(b, "attr", ""))
                                               for b in node.bases} & families:
            for item in node.body:
                if (isinstance(item, ast.Assign) and getattr(item.targets[0], "id", "") == "code"
                        and isinstance(item.value, ast.Constant)):
                    codes.add(item.value.value)
        elif isinstance(node, ast.Call):
            called = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if called in families:
                codes.update(k.value.value for k in node.keywords
                             if k.arg == "code" and isinstance(k.value, ast.Constant))
    return codes


def rest_codes() -> set[str]:
    families = {cls.__name__ for cls in subclasses(SpiderError)} | {"SpiderError"}
    codes = set(OF_THE_FRAMEWORK)
    for source in REST_SOURCES:
        if str(source.relative_to(ROOT / "app")) not in WS_ONLY:
            codes |= _codes_in(source, families)
    return codes


def errors_section() -> str:
    return DOC.split("\n## Errors", 1)[1].split("\n## ", 1)[0]


def table_codes() -> set[str]:
    rows = [line for line in errors_section().splitlines() if re.match(r"\| \d{3} \|", line)]
    return {code for row in rows for code in re.findall(r"`([a-z_]+)`", row.split("|")[2])}


def test_there_are_codes_to_check() -> None:
    assert {"name_taken", "self", "bad_dates", "no_token", "table_full", "not_your_game",
            "daily_already_played", "validation_error", "method_not_allowed"} <= rest_codes()
    assert len(table_codes()) > 40


@pytest.mark.parametrize("code", sorted(rest_codes()))
def test_every_rest_code_is_in_the_errors_section(code: str) -> None:
    assert f"`{code}`" in errors_section()


def test_the_table_names_no_code_the_api_never_answers() -> None:
    assert table_codes() <= rest_codes(), table_codes() - rest_codes()
    assert not table_codes() & GUARDED_CODES  # those are never answered over REST


def test_the_limits_of_the_api_are_the_codes(app: FastAPI) -> None:
    settings = Settings()
    text = " ".join(DOC.split())
    sizes = {(p["schema"].get("maximum"), p["schema"].get("default"))
             for item in app.openapi()["paths"].values() for operation in item.values()
             for p in operation.get("parameters", []) if p["name"] == "page_size"}
    [(largest, default)] = sizes  # one rule for every list
    assert largest == MAX_PAGE_SIZE
    assert f"`page_size` 1–{largest} (default {default})" in text
    assert f"Names: {NAME_MIN}–{NAME_MAX} characters" in text
    assert f"`SPIDER_PLAYER_CREATE_BURST`, default {settings.player_create_burst}" in text
    assert (f"`SPIDER_PLAYER_CREATE_PER_MINUTE`, default {settings.player_create_per_minute:g}"
            in text)
    day = 24 * 3600
    assert settings.invite_ttl_seconds == settings.table_ttl_seconds == day
    assert "(`SPIDER_INVITE_TTL_SECONDS`, default 24 h)" in text
    assert "(`SPIDER_TABLE_TTL_SECONDS`, default 24 h)" in text
    assert (f"(`SPIDER_START_WINDOW_SECONDS`, default {settings.start_window_seconds // 60} "
            "min," in text)
