"""The house rules of app/: what each layer may import, no import circle, short modules.

- Each package imports only downwards (docs/architecture.md, "Where a new feature goes"):
  ``app/wire/`` (the frames the server sends) imports nothing of app/;
  ``app/runtime/`` (run-time primitives) imports nothing of app/ but ``app.errors``;
  ``app/messaging/`` (pub/sub, event streams, presence) nothing of the rooms, services,
  adapters, database or server shell; ``app/rooms/`` (live play) nothing SQL and nothing
  of the services, adapters or shell (services may import rooms, never the other way
  round); ``app/services/`` nothing of the adapters or shell; ``app/ops/`` (the server
  shell) nothing of the live layer or services. The composition root (``app/main.py``,
  ``app/wiring.py``) is imported by nobody but ``app/main.py``.
  The engine, scoring and rewards are pure: ``tests/engine/test_purity.py``.
- No two modules of app/ import each other, directly or through others.
- No module over 400 lines, no class over 250, no exception.
- No two modules of the browser client (web/) import each other, directly or through
  others, counting ``import()`` on demand as well as static imports.
- No class name is defined twice in app/ (a reader, or a search, finds one ``Match``).
  The pairs still to rename are listed so that the list can only shrink.
- Test code stays out of the product: no module of app/ is named ``test_*``, and no
  benchmark imports from tests/ (the tests may use bench/, not the other way round).
"""

import ast
import re
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.wire.frames import ServerFrame

APP = Path(__file__).resolve().parents[1] / "app"
BENCH = APP.parent / "bench"
WEB = APP.parent / "web"
# `import x from "./a.js"`, `import "./a.js"`, `export { x } from "./a.js"` and `import("./a.js")`.
WEB_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;()"']*?\bfrom\s*["']([^"']+)["']"""
    r"""|^\s*import\s*["']([^"']+)["']"""
    r"""|\bimport\(\s*["']([^"']+)["']\s*\)""", re.M)
SQL = ("sqlalchemy", "aiosqlite", "asyncpg", "alembic", "app.db")
WEB_STACK = ("fastapi", "starlette", "uvicorn")
ROOT = ("app.main", "app.wiring")
# What no module of a package may import (a name or any module under it).
FORBIDDEN = {
    "wire": ("app.engine", "app.scoring", "app.rewards", "app.runtime", "app.messaging",
             "app.rooms", "app.services", "app.api", "app.ops", "app.cli", "app.errors",
             "app.ids", "app.settings", *SQL, *WEB_STACK, *ROOT),
    "runtime": ("app.engine", "app.scoring", "app.rewards", "app.wire", "app.messaging",
                "app.rooms", "app.services", "app.api", "app.ops", "app.cli", *SQL, *ROOT),
    "messaging": ("app.engine", "app.scoring", "app.rewards", "app.rooms", "app.services",
                  "app.api", "app.ops", "app.cli", *SQL, *WEB_STACK, *ROOT),
    "rooms": ("app.services", "app.api", "app.ops", "app.cli", *SQL, *WEB_STACK, *ROOT),
    "services": ("app.api", "app.ops", "app.cli", *ROOT),
    "ops": ("app.messaging", "app.rooms", "app.services", "app.api", "app.cli", *ROOT),
    "api": ("app.cli", *ROOT),
}
MODULE_LINES_MAX = 400
# Class names still defined twice (issue 22 renamed the others); each goes with its rename.
KNOWN_TWICE: set[str] = set()
CLASS_LINES_MAX = 250


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(APP.rglob("*.py"))}


def imported(path: Path) -> Iterator[str]:
    """Every module name an import statement anywhere in the file names (lazy ones too)."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def app_imports(name: str) -> set[str]:
    return {other for other in imported(MODULES[name]) if other in MODULES and other != name}


def layered_modules() -> list[tuple[str, Path]]:
    return [(package, path) for package in FORBIDDEN
            for path in sorted((APP / package).rglob("*.py"))]


def test_there_are_modules_to_check() -> None:
    per_package = {package: sum(1 for found, _ in layered_modules() if found == package)
                   for package in FORBIDDEN}
    assert min(per_package.values()) >= 5 and per_package["rooms"] >= 10, per_package
    assert len(MODULES) >= 100


def _banned(name: str, banned: tuple[str, ...]) -> bool:
    return any(name == ban or name.startswith(ban + ".") for ban in banned)


@pytest.mark.parametrize(("package", "path"), layered_modules(),
                         ids=lambda p: p if isinstance(p, str) else p.name)
def test_each_package_imports_only_downwards(package: str, path: Path) -> None:
    bad = {name for name in imported(path) if _banned(name, FORBIDDEN[package])}
    assert not bad, f"{path.relative_to(APP.parent)} imports {sorted(bad)}"


def test_the_layer_rule_sees_a_banned_import() -> None:
    assert _banned("app.rooms.frames", FORBIDDEN["messaging"])
    assert _banned("sqlalchemy.ext.asyncio", FORBIDDEN["rooms"])
    assert not _banned("app.messaging.pubsub", FORBIDDEN["rooms"])
    assert not _banned("app.roomsy", FORBIDDEN["messaging"])


def test_only_main_imports_the_composition_root() -> None:
    found = [f"{name}: {other}" for name, path in MODULES.items() if name != "app.main"
             for other in imported(path) if _banned(other, ROOT)]
    assert found == []


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in graph:
        if name not in index:
            visit(name)
    return found


def test_the_circle_finder_finds_circles_direct_and_through_others() -> None:
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c", "a"}, "f": {"a"}}
    assert sorted(circles(graph)) == [["a", "b"], ["c", "d", "e"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle() -> None:
    assert circles({name: app_imports(name) for name in MODULES}) == []


def class_lines(node: ast.ClassDef) -> int:
    return (node.end_lineno or node.lineno) - node.lineno + 1


def oversized() -> set[str]:
    found = set()
    for path in MODULES.values():
        where = str(path.relative_to(APP.parent))
        text = path.read_text()
        if len(text.splitlines()) > MODULE_LINES_MAX:
            found.add(f"module {where}")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and class_lines(node) > CLASS_LINES_MAX:
                found.add(f"class {where}:{node.name}")
    return found


def test_modules_and_classes_are_short() -> None:
    assert oversized() == set()


def test_no_test_module_in_app() -> None:
    assert [str(path.relative_to(APP.parent)) for path in APP.rglob("test_*.py")] == []


def test_no_benchmark_imports_the_tests() -> None:
    found = [f"{path.relative_to(APP.parent)}: {name}" for path in sorted(BENCH.rglob("*.py"))
             for name in imported(path) if name == "tests" or name.startswith("tests.")]
    assert found == []


def class_names_defined_twice() -> set[str]:
    where: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(name)
    return {name for name, modules in where.items() if len(modules) > 1}


def test_no_class_name_is_defined_twice() -> None:
    found = class_names_defined_twice()
    assert not found - KNOWN_TWICE, "a class name defined twice in app/"
    assert not KNOWN_TWICE - found, "renamed: take it off KNOWN_TWICE"


def web_imports(path: Path, text: str) -> set[Path]:
    """The web/ files a script imports, statically or with import() (comments skipped)."""
    code = re.sub(r"/\*.*?\*/|(?<![:\\])//[^\n]*", "", text, flags=re.S)
    names = {next(name for name in found if name) for found in WEB_IMPORT.findall(code)}
    return {(path.parent / name).resolve() for name in names if name.startswith(".")}


def test_the_web_import_reader_sees_every_kind_of_import(tmp_path: Path) -> None:
    script = tmp_path / "js" / "a.js"
    text = """import { h, clear } from "./dom.js";
import {
  t,
} from './i18n.js';
import "./side.js";
export { x } from "./b.js";
// import { old } from "./commented.js";
const later = () => import("./later.js").then((m) => m.run);
"""
    found = {path.name for path in web_imports(script, text)}
    assert found == {"dom.js", "i18n.js", "side.js", "b.js", "later.js"}


def web_graph() -> dict[str, set[str]]:
    scripts = sorted(WEB.rglob("*.js"))
    return {str(path.relative_to(WEB)): {str(other.relative_to(WEB))
                                          for other in web_imports(path, path.read_text())}
            for path in scripts}


def test_no_import_circle_in_the_web_client() -> None:
    graph = web_graph()
    assert "js/mytables.js" in graph["js/lobby.js"]  # an import() on demand is seen
    known = {name: {other for other in imports if other in graph}
             for name, imports in graph.items()}
    assert circles(known) == []


STEPPING = ("app.engine.game.apply", "app.engine.game.replay", "app.scoring.play.ScoredGame",
            "app.scoring.play")
"""What applies an action to a live game: the duel core's step (and the log fold) only."""
LIVE_PLAY = ("app.rooms.duel", "app.rooms.step_runner", "app.rooms.acting",
             "app.rooms.fan_out", "app.rooms.live_match", "app.services.solo_play",
             "app.services.solo_guide", "app.services.solo_lifecycle",
             "app.services.solo_seat")


@pytest.mark.parametrize("name", LIVE_PLAY)
def test_every_mode_steps_through_the_duel_core(name: str) -> None:
    """A duel's action and a solo or daily game's (the player's own, a rescue's, the
    auto-complete's, an undo to the last winnable position) are one step of
    ``app/rooms/duel_core.act``: no live-play module applies or scores an action itself."""
    found = sorted(other for other in imported(MODULES[name]) if other in STEPPING)
    assert found == [], f"{name} applies actions itself: {found}"


STORE_CALLS = {"append_action", "start_game", "end_game"}
"""The step port's writes (``app/rooms/store.StepStore``)."""


def store_writes_called(path: Path) -> set[str]:
    """The step port's methods a module calls on something (``x.append_action(...)``)."""
    return {node.func.attr for node in ast.walk(ast.parse(path.read_text(), str(path)))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in STORE_CALLS}


@pytest.mark.parametrize("name", LIVE_PLAY)
def test_every_mode_stores_its_steps_through_one_port(name: str) -> None:
    """A step's writes, a duel's or a solo game's, go through ``step_writes.write_step``
    to a store behind the port: no live-play module makes them itself (the duel's
    runner may end a game whose row lags behind its log as it resumes one; the solo
    game's store, ``SoloRowStore``, is in ``solo_seat``)."""
    allowed = {"app.rooms.step_runner": {"end_game"},
               "app.services.solo_seat": STORE_CALLS}.get(name, set())
    assert store_writes_called(MODULES[name]) <= allowed
    assert "app.rooms.step_writes" in imported(MODULES[name]) or name not in {
        "app.rooms.step_runner", "app.services.solo_play", "app.services.solo_lifecycle"}


def test_the_store_call_finder_sees_a_call(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("async def f(store):\n    await store.append_action(1, 2)\n")
    assert store_writes_called(module) == {"append_action"}


FRAME_MODULES = {"app.rooms.frames", "app.services.solo_frames", "app.messaging.stream_frames"}
"""Where the frames the server sends are built: one builder per frame type."""
FRAME_TYPES = {kind.__name__ for kind in typing.get_args(ServerFrame)}
SCHEMA_TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"}


def frame_literals(path: Path) -> Iterator[str]:
    """The ``type`` of every dict literal that looks like a frame (a string ``type`` that
    is not a JSON-schema type)."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            if (isinstance(key, ast.Constant) and key.value == "type"
                    and isinstance(value, ast.Constant) and isinstance(value.value, str)
                    and value.value not in SCHEMA_TYPES):
                yield value.value


def frames_made(path: Path) -> Iterator[str]:
    """The frame types (``app/wire`` structs) a module makes: calls of their names."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else None)
            if name in FRAME_TYPES:
                yield name


def test_no_frame_is_a_dict_built_by_hand() -> None:
    """Every frame is a typed struct of app/wire/ (issue 22): no dict in app/ has a
    frame's ``type``, not even in the builders."""
    found = sorted(f"{name}: {kind}" for name, path in MODULES.items()
                   if not name.startswith("app.api.protocol")
                   for kind in frame_literals(path))
    assert found == [], "a frame built as a dict"


def test_frames_are_made_only_by_their_builders() -> None:
    found = sorted(f"{name}: {kind}" for name, path in MODULES.items()
                   if name not in FRAME_MODULES and not name.startswith("app.wire")
                   for kind in frames_made(path))
    assert found == [], "a frame made outside app/rooms/frames.py (and kin)"


def test_the_frame_finders_see_a_frame_and_not_a_schema(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text('A = {"type": "solo_ack", "seq": 1}\nB = {"type": "object"}\n'
                      'C = {"kind": "x"}\nD = wire.Ack(1)\nE = Pong()\nF = Other()\n')
    assert list(frame_literals(source)) == ["solo_ack"]
    assert sorted(frames_made(source)) == ["Ack", "Pong"]


def test_the_operators_guide_stays_a_guide() -> None:
    """docs/operations.md is an operator's guide of at most 400 lines (issue 22): the
    history of benchmark rounds goes to docs/bench/."""
    guide = Path(__file__).resolve().parents[1] / "docs" / "operations.md"
    assert len(guide.read_text().splitlines()) <= 400
