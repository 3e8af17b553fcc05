"""Pages of results: 1-based page numbers, bounded page sizes."""

from dataclasses import dataclass
from typing import Generic, TypeVar

from app.errors import InvalidInput

T = TypeVar("T")
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
