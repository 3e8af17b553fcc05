"""Why an action is illegal: one exception type per rule-book code."""


class IllegalAction(ValueError):
    """An action the rules refuse. ``code`` is the rule book's code for it."""

    code = "illegal"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadColumn(IllegalAction):
    code = "bad_column"


class SameColumn(IllegalAction):
    code = "same_column"


class BadCount(IllegalAction):
    code = "bad_count"


class NotMovable(IllegalAction):
    code = "not_movable"


class BadTarget(IllegalAction):
    code = "bad_target"


class Pointless(IllegalAction):
    code = "pointless"


class StockEmpty(IllegalAction):
    code = "stock_empty"


class EmptyColumn(IllegalAction):
    code = "empty_column"


class NothingToFlip(IllegalAction):
    code = "nothing_to_flip"


class NothingToUndo(IllegalAction):
    code = "nothing_to_undo"


class UndoBarrier(IllegalAction):
    code = "undo_barrier"


ILLEGAL_CODES = tuple(
    cls.code
    for cls in (
        BadColumn, SameColumn, BadCount, NotMovable, BadTarget, Pointless,
        StockEmpty, EmptyColumn, NothingToFlip, NothingToUndo, UndoBarrier,
    )
)
