"""POST /api/records/verify: what ``spider replay`` says of a record, for anybody."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from app.api.routes.common import problems
from app.engine.deal_numbers import DEAL_NUMBER_MIN, PLAYABLE_NUMBER_MAX
from app.errors import RateLimited
from app.services.record_check import check_record

router = APIRouter(prefix="/api/records", tags=["records"])

RECORD_SCHEMA = {
    "type": "object", "required": ["rules", "moves"],
    "properties": {
        "rules": {"type": "object", "description": "the rule book's rules object"},
        "layout": {"type": "object", "description": "a starting layout, or"},
        "deal": {"type": "object", "properties": {"number": {
            "type": "integer", "minimum": DEAL_NUMBER_MIN, "maximum": PLAYABLE_NUMBER_MAX}},
                 "description": "a generator deal by number"},
        "moves": {"type": "array", "items": {"type": ["string", "object"]}},
    },
}


class ActionVerdictOut(BaseModel):
    action: dict[str, Any]
    ok: bool
    error: str | None = None
    message: str | None = None


class VerifyOut(BaseModel):
    results: list[ActionVerdictOut]
    final: dict[str, Any] = Field(description="the final position (rule book layout)")
    status: Literal["playing", "won"]
    scoring: str
    score: int
    actions: int
    all_legal: bool


@router.post(
    "/verify", response_model=VerifyOut, response_model_exclude_none=True,
    responses=problems(413, 429, invalid=("bad_record",)),
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": RECORD_SCHEMA}}}},
)
async def verify_record(
    request: Request,
    keep_going: Annotated[bool, Query(description="judge every action, skipping "
                                                  "illegal ones")] = False,
) -> dict[str, Any]:
    """Replay a game record: each action's verdict, the final position, status, score."""
    settings = request.app.state.settings
    wait = request.app.state.verify_buckets.take(
        request.client.host if request.client else "unknown")
    if wait > 0:
        raise RateLimited("too many records checked from your address; try again later",
                          retry_after=wait)
    body = await _body(request, settings.records_verify_max_bytes)
    return check_record(body, max_bytes=settings.records_verify_max_bytes,
                        max_moves=settings.records_verify_max_moves, keep_going=keep_going)


async def _body(request: Request, limit: int) -> bytes:
    """The body, read no further than one byte past ``limit`` (the check says the rest)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            break
    return b"".join(chunks)
