"""Pieces shared by the routes: bounded ids, paging parameters, ISO dates, documented
problems."""

import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, BeforeValidator

from app.api.auth import Me
from app.api.database import Session
from app.api.schemas import PageMeta, ProblemOut
from app.ids import INT_COLUMN_MAX
from app.services.paging import Page

MAX_ID = INT_COLUMN_MAX  # every id column is a 32-bit INTEGER (app/ids.py)

Id = Annotated[int, Path(ge=1, le=MAX_ID)]
PageNumber = Annotated[int, Query(ge=1, le=1_000_000, description="1-based")]
PageSize = Annotated[int, Query(ge=1, le=100)]

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso_day_first(value: object) -> object:
    """Refuse what is not ISO 8601 text: pydantic would read ``?since=12345`` as seconds
    since 1970, which no client means."""
    if isinstance(value, str) and _DAY.match(value):
        return value
    raise ValueError("expected an ISO 8601 date-time such as 2026-12-01T18:00:00Z "
                     f"(or a date such as 2026-12-01), not {value!r}")


def _iso_day_only(value: object) -> object:
    if isinstance(value, str) and _DAY.fullmatch(value):
        return value
    raise ValueError(f"expected an ISO 8601 date such as 2026-12-01, not {value!r}")


IsoDateTimeText = BeforeValidator(_iso_day_first)
"""With a ``datetime`` parameter: ISO 8601 text only (no zone = UTC)."""
IsoDateText = BeforeValidator(_iso_day_only)
"""With a ``date`` parameter: YYYY-MM-DD only."""

Lister = Callable[..., Awaitable[Page[Any]]]  # (session=, player=, page=, page_size=)


def my_list(router: APIRouter, path: str, *, name: str, lister: Lister,
            answer: type[PageMeta], item: Callable[[Any], BaseModel], doc: str) -> None:
    """``GET path``: a page of one of my lists (``lister``), each entry through ``item``."""

    @router.get(path, response_model=answer, name=name, description=doc,
                responses=problems(401))
    async def listed(player: Me, session: Session, page: PageNumber = 1,
                     page_size: PageSize = 20) -> PageMeta:
        found = await lister(session=session, player=player, page=page, page_size=page_size)
        return answer.of(found, item)


PROBLEM = {"$ref": "#/components/schemas/ProblemOut"}

# Codes the services raise for every caller that the request schemas refuse first, over
# HTTP, as ``validation_error``: a route never answers them, so none lists them.
GUARDED_CODES = frozenset({"bad_page", "bad_suits", "bad_level", "bad_preset",
                           "bad_time_limit", "bad_name", "invalid_input"})


def problems(*statuses: int, invalid: tuple[str, ...] = ()) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the problem-details responses a route may give; ``invalid``:
    the codes of its business 422 answers (beside the request schema's
    ``validation_error``), listed as the enum of ``code``."""
    described = {*statuses, 400, 422}  # 400: a body that is not even UTF-8
    entries: dict[int | str, dict[str, Any]] = {
        status: {"model": ProblemOut, "description": "problem details (RFC 9457)",
                 "content": {"application/problem+json": {"schema": PROBLEM}}}
        for status in sorted(described)
    }
    codes = ["validation_error", *invalid]
    entries[422]["description"] = "invalid input (RFC 9457 problem), code: " + ", ".join(codes)
    entries[422]["content"] = {"application/problem+json": {"schema": {"allOf": [
        PROBLEM, {"type": "object", "properties": {"code": {"type": "string", "enum": codes}}},
    ]}}}
    return entries
