"""Pages of results: 1-based page numbers, bounded page sizes."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, TypeVarTuple

from sqlalchemy import Select, func, select
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import InvalidInput

T = TypeVar("T")
Ts = TypeVarTuple("Ts")
MAX_PAGE_SIZE = 100


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    total: int
    page: int
    page_size: int


def check_paging(page: int, page_size: int) -> tuple[int, int]:
    """(offset, limit) for a page; bad values are refused rather than clamped."""
    if page < 1:
        raise InvalidInput(f"page starts at 1, not {page}", code="bad_page")
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise InvalidInput(f"page_size must be 1 to {MAX_PAGE_SIZE}, not {page_size}",
                           code="bad_page")
    return (page - 1) * page_size, page_size


async def page_rows(session: AsyncSession, query: Select[*Ts], *, page: int,
                    page_size: int) -> tuple[Sequence[Row[*Ts]], int]:
    """One page of an ordered ``query``'s rows and the count of all of them."""
    offset, limit = check_paging(page, page_size)
    total = await session.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = (await session.execute(query.offset(offset).limit(limit))).all()
    return rows, total
