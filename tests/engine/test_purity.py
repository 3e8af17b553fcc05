"""app/engine, app/scoring and app/rewards are pure: no web, database, async or network
imports; of app/, each other and the wire format's game parts only (``app/wire/game.py``,
the type of the engine's ``player_view``)."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "app"
FORBIDDEN = {
    "fastapi", "starlette", "sqlalchemy", "asyncio", "uvicorn", "redis", "pydantic",
    "pydantic_settings", "httpx", "aiosqlite", "asyncpg", "websockets", "alembic",
    "socket", "requests", "urllib", "http", "subprocess", "threading", "multiprocessing",
    "app.api", "app.rooms", "app.db", "app.main", "app.settings", "app.cli",
}
PURE_PACKAGES = ["engine", "scoring", "rewards"]


def modules() -> list[Path]:
    return sorted(path for package in PURE_PACKAGES for path in (ROOT / package).rglob("*.py"))


def imported_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            names.add("__import__")
    return names


def test_there_are_modules_to_check() -> None:
    assert len(modules()) >= 10


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_is_pure(path: Path) -> None:
    bad = set()
    for name in imported_names(path):
        if name == "__import__" or any(
            name == forbidden or name.startswith(forbidden + ".") for forbidden in FORBIDDEN
        ):
            bad.add(name)
    assert not bad, f"{path} imports {sorted(bad)}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_does_no_io(path: Path) -> None:
    tree = ast.parse(path.read_text(), str(path))
    calls = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not calls & {"open", "print", "input", "exec", "eval"}


WIRE_LEAF = "app.wire.game"
"""The wire format's game parts: msgspec structs (the view's type among them) that import
nothing of app/ but the wire's base; the engine's ``player_view`` builds its ``GameView``."""


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_pure_packages_import_each_other_and_the_wire_leaf_only(path: Path) -> None:
    allowed = ("app.engine", "app.scoring", "app.rewards", WIRE_LEAF)
    bad = {name for name in imported_names(path)
           if name.split(".")[0] == "app"
           and not any(name == package or name.startswith(package + ".")
                       for package in allowed)}
    assert not bad, f"{path} imports {sorted(bad)}"


def test_the_wire_leaf_imports_only_msgspec_and_the_wire_base() -> None:
    leaf = ROOT / "wire" / "game.py"
    imported = imported_names(leaf)
    assert {name for name in imported if name.split(".")[0] == "app"} == {"app.wire.base"}
    base = imported_names(ROOT / "wire" / "base.py")
    assert not {name for name in base if name.split(".")[0] == "app"}
    outside = {name for name in imported | base if name.split(".")[0] not in (
        "app", "msgspec", "__future__") and name.split(".")[0] not in sys.stdlib_module_names}
    assert not outside


def rewards_modules() -> list[Path]:
    return sorted((ROOT / "rewards").rglob("*.py"))


def test_rewards_has_modules_to_check() -> None:
    assert len(rewards_modules()) >= 2


@pytest.mark.parametrize("path", rewards_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_rewards_imports_only_the_standard_library_the_engine_and_scoring(path: Path) -> None:
    allowed_app = ("app.engine", "app.scoring", "app.rewards")
    bad = {
        name for name in imported_names(path)
        if name.split(".")[0] not in sys.stdlib_module_names
        and not any(name == package or name.startswith(package + ".") for package in allowed_app)
    }
    assert not bad, f"{path} imports {sorted(bad)}"
