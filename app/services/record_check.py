"""Check a posted game record as ``spider replay`` does: verdicts, final position, score.

Limits come first (size, then the number of moves, before any move is parsed), then the
record's own form; illegal actions are an answer, not an error (docs/solo-and-daily.md
section 9). It never looks up stored games: a generator deal is public by its number. A
deal number must be one a solo game deals (1 to 2**48 − 1, ``check_deal_number``).
"""

from __future__ import annotations

import json
from typing import Any

from app.engine.deal import DealNumberError
from app.engine.deal_numbers import check_deal_number
from app.engine.record import RecordError, record_from_json
from app.errors import BadRequest, InvalidInput, TooLarge
from app.scoring.replay import replay_record


class RecordTooLarge(TooLarge):
    code = "record_too_large"


class BadRecord(InvalidInput):
    code = "bad_record"


class NotJson(BadRequest):
    code = "bad_json"


def check_record(body: bytes, *, max_bytes: int, max_moves: int, keep_going: bool
                 ) -> dict[str, Any]:
    """The replay report of the record in ``body`` (UTF-8 JSON), plus ``all_legal``."""
    if len(body) > max_bytes:
        raise RecordTooLarge(f"a record may hold at most {max_bytes} bytes")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise NotJson(f"the body is not UTF-8 JSON: {error}") from None
    moves = data.get("moves") if isinstance(data, dict) else None
    if isinstance(moves, list) and len(moves) > max_moves:
        raise RecordTooLarge(f"a record may hold at most {max_moves} moves, not {len(moves)}")
    try:
        record = record_from_json(data)
        if record.deal_number is not None:  # the generator takes any; we deal what solo does
            check_deal_number(record.deal_number)
    except RecordError as error:
        raise BadRecord(str(error)) from None
    except DealNumberError as error:
        raise BadRecord(f"deal.number: {error}") from None
    report = replay_record(record, keep_going=keep_going)
    return {**report.to_json(), "all_legal": report.all_legal}
