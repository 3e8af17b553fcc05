"""An in-process app on a test database, and small helpers to drive it over HTTP."""

from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from app.settings import Settings

SECRET = "test-secret-key"


def make_settings(database_url: str, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "database_url": database_url, "secret_key": SECRET,
        "player_create_burst": 10_000, "player_create_per_minute": 10_000.0,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture
def app(database_url: str) -> FastAPI:
    return create_app(make_settings(database_url))


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as opened:
        yield opened
    await app.state.db_engine.dispose()


@dataclass(frozen=True)
class User:
    id: int
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def signup(client: httpx.AsyncClient, name: str) -> User:
    response = await client.post("/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    body = response.json()
    return User(body["player"]["id"], body["player"]["name"], body["token"])


def assert_problem(response: httpx.Response, status: int, code: str | None = None) -> dict:  # type: ignore[type-arg]
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert {"type", "title", "status", "detail", "code"} <= set(body)
    assert body["status"] == status
    assert body["detail"]
    if code is not None:
        assert body["code"] == code, body
    return body  # type: ignore[no-any-return]


async def befriend(client: httpx.AsyncClient, asker: User, other: User) -> None:
    """Make ``asker`` and ``other`` friends the only way there is: a request, accepted."""
    asked = await client.post("/api/me/friend-requests", json={"name": other.name},
                              headers=asker.auth)
    assert asked.status_code == 201, asked.text
    if asked.json()["status"] == "requested":
        accepted = await client.post(f"/api/me/friend-requests/{asker.id}/accept",
                                     headers=other.auth)
        assert accepted.status_code == 200, accepted.text
