"""Which business 422 codes a REST route can raise: a walk of its source and of every
``app.*`` function it calls (by name, module attribute, or a method of a class of the
same module), collecting the ``code`` of each ``raise InvalidInput(...)`` (or subclass)."""

import ast
import importlib
import inspect
import pkgutil
import textwrap
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from fastapi.routing import APIRoute

import app.api.routes as routes_package
from app.errors import InvalidInput


def api_routes() -> Iterator[APIRoute]:
    """Every route of every router module in app/api/routes/."""
    for info in pkgutil.iter_modules(routes_package.__path__):
        module = importlib.import_module(f"{routes_package.__name__}.{info.name}")
        router = getattr(module, "router", None)
        for route in getattr(router, "routes", ()):
            if isinstance(route, APIRoute):
                yield route


def _resolve(node: ast.expr, module: ModuleType) -> Any:
    if isinstance(node, ast.Name):
        return vars(module).get(node.id)
    if not isinstance(node, ast.Attribute):
        return None
    base = _resolve(node.value, module)
    if base is not None:
        return getattr(base, node.attr, None)
    # A method called on a value (``settings.check()``): the one class here defining it.
    owners = [cls for cls in vars(module).values() if inspect.isclass(cls)
              and cls.__module__ == module.__name__ and node.attr in vars(cls)]
    return getattr(owners[0], node.attr) if len(owners) == 1 else None


def _raised_code(node: ast.Raise, module: ModuleType) -> str | None:
    if not isinstance(node.exc, ast.Call):
        return None
    cls = _resolve(node.exc.func, module)
    if not (inspect.isclass(cls) and issubclass(cls, InvalidInput)):
        return None
    given = {keyword.arg: keyword.value for keyword in node.exc.keywords}.get("code")
    return given.value if isinstance(given, ast.Constant) else str(cls.code)


def raised_codes(function: Callable[..., Any], seen: set[object] | None = None) -> set[str]:
    seen = set() if seen is None else seen
    function = inspect.unwrap(function)
    if function in seen or not getattr(function, "__module__", "").startswith("app."):
        return set()
    seen.add(function)
    module = inspect.getmodule(function)
    assert module is not None
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    codes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and (code := _raised_code(node, module)):
            codes.add(code)
        elif isinstance(node, ast.Call):
            called = _resolve(node.func, module)
            if inspect.isfunction(called) or inspect.ismethod(called):
                codes |= raised_codes(called, seen)
    return codes
