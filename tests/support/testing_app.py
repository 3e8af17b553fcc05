"""The testing app: the product's app (app/main.py) plus the test-only routes.

Servers started by tests run this one: in a thread (``create_testing_app``), under
``python -m uvicorn tests.support.testing_app:app``, or ``python -m
tests.support.testing_serve`` (``spider serve`` with this app). The product's app never
mounts a test route (tests/test_assembly.py).
"""

from fastapi import FastAPI

from app.main import create_app, served
from app.settings import Settings, get_settings
from tests.support import layout_route

TEST_ROUTERS = (layout_route.router,)


def create_testing_app(settings: Settings | None = None) -> FastAPI:
    app = create_app(settings or get_settings())
    for router in TEST_ROUTERS:
        app.include_router(router)
    return app


app = served(create_testing_app())
