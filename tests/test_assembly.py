"""One place assembles the app (app/main.py); no framework method is replaced; no other
library's private attribute is touched outside the lean WebSocket path (app/runtime/lean_ws.py)."""

import ast
import re
from pathlib import Path

import pytest
from fastapi import FastAPI

APP = Path(__file__).resolve().parents[1] / "app"
FILES = sorted(APP.rglob("*.py"))
ASSEMBLER = APP / "main.py"
PRIVATE_HOOKS = APP / "runtime" / "lean_ws.py"

# What assembling looks like: adding routes, middleware, mounts or handlers to the app,
# putting things on app.state, and swapping the framework's own methods or lifespan.
ASSEMBLING = re.compile(
    r"\bapp\.(include_router|add_middleware|mount|add_exception_handler|add_api_route)\("
    r"|\bapp\.state\.\w+\s*=[^=]"
    r"|\.lifespan_context\s*=[^=]"
    r"|build_middleware_stack\s*=[^=]")


def _rel(path: Path) -> str:
    return str(path.relative_to(APP.parent))


def test_only_main_assembles_the_app() -> None:
    found = [f"{_rel(path)}: {match.group(0)}" for path in FILES if path != ASSEMBLER
             for match in ASSEMBLING.finditer(path.read_text())]
    assert found == []


def test_no_framework_method_is_replaced() -> None:
    found = [_rel(path) for path in FILES
             if re.search(r"build_middleware_stack\s*=|method-assign", path.read_text())]
    assert found == []


def _defined_names(tree: ast.Module) -> set[str]:
    """Private names a module defines itself: functions, classes, attributes it sets."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)  # __slots__ entries
    return names


def _foreign_private_reads(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    own = _defined_names(tree)
    return [f"{_rel(path)}:{node.lineno}: .{node.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not node.attr.startswith("__") and node.attr not in own
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]


def test_no_private_attribute_of_another_module_is_used() -> None:
    found = [line for path in FILES if path != PRIVATE_HOOKS
             for line in _foreign_private_reads(path)]
    assert found == []


@pytest.mark.parametrize("call", [r"websocket\._send\b", r"\._execute\(", r"\._conn\b"])
def test_the_known_private_hooks_are_gone(call: str) -> None:
    assert [_rel(path) for path in FILES
            if path != PRIVATE_HOOKS and re.search(call, path.read_text())] == []


def test_the_product_app_mounts_no_test_route() -> None:
    """Test-only routes (tests/support/testing_app.py) are the testing app's alone."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.settings import Settings
    from tests.support.testing_app import create_testing_app

    def put_layout(app: FastAPI) -> int:  # no lifespan: no database is touched
        return TestClient(app).put("/api/test/matches/1/layout", json={"layout": {}}).status_code

    memory = Settings(database_url="sqlite+aiosqlite:///:memory:")
    assert put_layout(create_app(memory)) == 404  # no such route
    assert put_layout(create_testing_app(memory)) == 401  # there, but a player's only
