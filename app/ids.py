"""The integer range every id and deal number lives in, for every layer that checks input.

Every id column is a 32-bit INTEGER (and deal numbers are drawn to fit one too): a larger
number cannot name anything stored, so it is refused at the edge instead of reaching SQL.
"""

INT_COLUMN_MAX = 2**31 - 1
