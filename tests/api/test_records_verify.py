"""POST /api/records/verify: verdicts as ``spider replay`` gives them, limits, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from app.engine.solver.solvable import solvable_deal
from app.main import create_app
from tests.support.api import assert_problem, make_settings

ROOT = Path(__file__).resolve().parents[2]


def winning_record(number: int = 1) -> dict:  # type: ignore[type-arg]
    found = solvable_deal(number, 1)
    return {"rules": {"preset": "classic", "suits": 1}, "deal": {"number": found.source},
            "moves": [action.to_json() for action in found.solution]}


async def test_a_winning_record_verifies_as_spider_replay_says(
    client: httpx.AsyncClient, tmp_path: Path,
) -> None:
    record = winning_record()
    answer = await client.post("/api/records/verify", json=record)
    assert answer.status_code == 200, answer.text
    report = answer.json()
    assert report["all_legal"] is True and report["status"] == "won"
    assert report["actions"] == len(record["moves"]) == len(report["results"])
    assert all(r["ok"] for r in report["results"]) and "error" not in report["results"][0]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    cli = subprocess.run([str(Path(sys.executable).parent / "spider"), "replay", str(path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout) == {k: v for k, v in report.items() if k != "all_legal"}


async def test_illegal_actions_are_an_answer_not_an_error(client: httpx.AsyncClient) -> None:
    record = winning_record()
    record["moves"] = [{"op": "move", "from": 0, "to": 0, "count": 1}, *record["moves"][:3]]
    stopped = (await client.post("/api/records/verify", json=record)).json()
    assert stopped["all_legal"] is False and len(stopped["results"]) == 1
    assert stopped["results"][0]["error"] == "same_column" and stopped["results"][0]["message"]
    going = (await client.post("/api/records/verify?keep_going=true", json=record)).json()
    assert [r["ok"] for r in going["results"]] == [False, True, True, True]
    assert going["actions"] == 3 and going["status"] == "playing"


@pytest.mark.parametrize("body,status,code", [
    (b"\xff\xfe", 400, "bad_json"),
    (b"{not json", 400, "bad_json"),
    (b"[]", 422, "bad_record"),
    (b'{"rules": {"preset": "classic", "suits": 3}, "deal": {"number": 1}, "moves": []}',
     422, "bad_record"),
    (b'{"rules": {"preset": "classic", "suits": 1}, "moves": []}', 422, "bad_record"),
    (b'{"rules": {"preset": "classic", "suits": 1}, "deal": {"number": 1}, "moves": ["zz"]}',
     422, "bad_record"),
])
async def test_bad_bodies_get_clear_errors(client: httpx.AsyncClient, body: bytes, status: int,
                                           code: str) -> None:
    answer = await client.post("/api/records/verify", content=body,
                               headers={"content-type": "application/json"})
    problem = assert_problem(answer, status, code)
    assert problem["detail"]


@pytest.mark.parametrize("number", [2**48, 2**70])
async def test_a_deal_number_a_solo_game_refuses_is_refused_here_too(
    client: httpx.AsyncClient, number: int,
) -> None:
    record = {"rules": {"preset": "classic", "suits": 1}, "deal": {"number": number},
              "moves": []}
    problem = assert_problem(await client.post("/api/records/verify", json=record), 422,
                             "bad_record")
    assert "deal.number" in problem["detail"] and "281,474,976,710,655" in problem["detail"]
    record["deal"] = {"number": 2**48 - 1}  # the largest a solo game deals
    assert (await client.post("/api/records/verify", json=record)).status_code == 200


async def test_size_and_move_limits(database_url: str) -> None:
    app = create_app(make_settings(database_url, records_verify_max_bytes=4000,
                                   records_verify_max_moves=50))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://test") as client:
        record = winning_record()
        too_many = {**record, "moves": record["moves"][:51]}
        assert_problem(await client.post("/api/records/verify", json=too_many), 413,
                       "record_too_large")
        big = {**record, "moves": record["moves"][:40], "pad": "x" * 5000}
        assert_problem(await client.post("/api/records/verify", json=big), 413,
                       "record_too_large")
        fits = {**record, "moves": record["moves"][:50]}
        assert (await client.post("/api/records/verify", json=fits)).status_code == 200
    await app.state.db_engine.dispose()


async def test_the_per_address_bucket(database_url: str) -> None:
    app: FastAPI = create_app(make_settings(database_url, records_verify_burst=2,
                                            records_verify_per_minute=1.0))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://test") as client:
        record = winning_record()
        for _ in range(2):
            assert (await client.post("/api/records/verify", json=record)).status_code == 200
        refused = assert_problem(await client.post("/api/records/verify", json=record), 429,
                                 "rate_limited")
        assert refused
        late = await client.post("/api/records/verify", json=record)
        assert int(late.headers["retry-after"]) >= 1
    await app.state.db_engine.dispose()
