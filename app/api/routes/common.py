"""Pieces shared by the routes: bounded ids, paging parameters, documented problems."""

from typing import Annotated, Any

from fastapi import Path, Query

from app.api.schemas import ProblemOut
from app.ids import INT_COLUMN_MAX
from app.services.paging import Page

MAX_ID = INT_COLUMN_MAX  # every id column is a 32-bit INTEGER (app/ids.py)

Id = Annotated[int, Path(ge=1, le=MAX_ID)]
PageNumber = Annotated[int, Query(ge=1, le=1_000_000, description="1-based")]
PageSize = Annotated[int, Query(ge=1, le=100)]


def page_meta(found: Page[Any]) -> dict[str, int]:
    """A service page's numbers, for the ``*Page`` answer models."""
    return {"total": found.total, "page": found.page, "page_size": found.page_size}


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the problem-details responses a route may give."""
    described = {*statuses, 400, 422}  # 400: a body that is not even UTF-8
    return {
        status: {"model": ProblemOut, "content": {"application/problem+json": {}},
                 "description": "problem details (RFC 9457)"}
        for status in sorted(described)
    }
