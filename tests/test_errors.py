"""One error family (app/errors.py), mapped to the wire only by the adapters.

- Every domain error belongs to exactly one category, and every category has an HTTP
  status (app/api/problems.py) and a WebSocket answer (app/api/ws.py); a class outside
  any category must be a layer's base (RoomError, LimitExceeded) with subclasses.
- Nothing under app/services or app/rooms speaks HTTP: no status numbers on errors, no
  web framework, no HTTP words.
"""

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import app
from app import errors
from app.api import problems, ws
from app.errors import CATEGORIES, SpiderError

APP = Path(app.__file__).parent
# app.main builds an app at import; the CLI imports optional tools: errors live elsewhere.
SKIPPED = ("app.main", "app.cli")


def _import_all() -> None:
    for module in pkgutil.walk_packages([str(APP)], prefix="app."):
        if not module.name.startswith(SKIPPED):
            importlib.import_module(module.name)


def _family() -> set[type[SpiderError]]:
    _import_all()
    found: set[type[SpiderError]] = set()
    waiting = [SpiderError]
    while waiting:
        for sub in waiting.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                waiting.append(sub)
    return found


FAMILY = sorted(_family(), key=lambda kind: f"{kind.__module__}.{kind.__qualname__}")


def categories_of(kind: type[SpiderError]) -> set[type[SpiderError]]:
    return {category for category in CATEGORIES if issubclass(kind, category)}


def test_the_family_reaches_every_layer() -> None:
    modules = {kind.__module__ for kind in FAMILY}
    assert {"app.rooms.errors", "app.services.solo_store", "app.api.limits",
            "app.api.protocol", "app.runtime.connections"} <= modules


@pytest.mark.parametrize("kind", FAMILY, ids=lambda kind: kind.__qualname__)
def test_every_error_has_one_category_or_is_a_layer_base(kind: type[SpiderError]) -> None:
    found = categories_of(kind)
    if not found:
        assert kind.__subclasses__(), f"{kind.__name__}: no category and no subclasses"
        assert all(len(categories_of(sub)) == 1 for sub in kind.__subclasses__())
    else:
        assert len(found) == 1, f"{kind.__name__} is in several categories: {found}"


@pytest.mark.parametrize("kind", FAMILY, ids=lambda kind: kind.__qualname__)
def test_every_error_with_a_category_maps_to_http_and_websocket(kind: type[SpiderError]) -> None:
    if not categories_of(kind):
        return  # a layer's base: its subclasses are checked one by one
    status, title = problems.http_status(kind)
    # A client error, or storage out of reach just now (503: the same request may be sent
    # again); never a 500, which would say the server does not know what happened.
    assert (400 <= status < 500 or status == 503) and title
    assert ws.close_code(kind) in (ws.CLOSE_PROTOCOL, ws.CLOSE_POLICY,
                                          ws.CLOSE_POLICY_VIOLATION)


def test_every_category_has_its_own_status() -> None:
    assert set(problems.HTTP_STATUS) == set(CATEGORIES)
    assert len({status for status, _ in problems.HTTP_STATUS.values()}) == len(CATEGORIES)
    assert set(ws.CLOSE_CODES) <= set(CATEGORIES)


def test_an_error_outside_the_categories_has_no_status() -> None:
    class Stray(SpiderError):
        pass

    with pytest.raises(LookupError, match="Stray"):
        problems.http_status(Stray)


def test_the_base_carries_code_and_detail_only() -> None:
    error = errors.NotFound("no such thing", code="no_such_thing")
    assert (error.code, error.detail, error.message, str(error)) == (
        "no_such_thing", "no such thing", "no such thing", "no such thing")
    assert not any(hasattr(error, name) for name in ("status", "status_code", "title"))


HTTP_WORDS = re.compile(
    r"\bHTTP|\bhttp\b|status_code|\bstatus\s*=\s*\d{3}\b|"
    r"^\s*(from|import)\s+(fastapi|starlette|http)\b", re.MULTILINE)


@pytest.mark.parametrize("layer", ["services", "rooms", "messaging"])
def test_services_and_rooms_never_speak_http(layer: str) -> None:
    offenders = [f"{path.relative_to(APP.parent)}: {match.group(0).strip()}"
                 for path in sorted((APP / layer).rglob("*.py"))
                 for match in HTTP_WORDS.finditer(path.read_text())]
    assert offenders == []
