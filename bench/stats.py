"""Percentiles and small formatting helpers for the harness tables."""

from __future__ import annotations


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an already sorted list (NaN when empty)."""
    if not sorted_values:
        return float("nan")
    rank = max(0, min(len(sorted_values) - 1, round(fraction * len(sorted_values)) - 1))
    return sorted_values[rank]


def summary_ms(samples_s: list[float]) -> dict[str, float]:
    ordered = sorted(samples_s)
    return {
        "count": len(ordered),
        "p50_ms": round(percentile(ordered, 0.50) * 1e3, 3),
        "p95_ms": round(percentile(ordered, 0.95) * 1e3, 3),
        "p99_ms": round(percentile(ordered, 0.99) * 1e3, 3),
    }


def mib(n: float) -> float:
    return round(n / 2**20, 1)


def table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
