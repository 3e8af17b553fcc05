"""SVG path data, rounded to a grid without drift: parse, scale, round, write short.

Relative path commands cannot be rounded one by one (each rounding error would carry
into every later point), so a path is first made absolute, scaled and rounded, then each
segment is written relative to the *rounded* previous point, whichever form is shorter.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
Segment = tuple[str, list[float]]


def tokens(d: str) -> Iterator[str | float]:
    """Command letters and numbers; an arc's two flags are single digits ("a5 5 0 0110 10")."""
    pos, command, index = 0, "", 0
    while pos < len(d):
        char = d[pos]
        if char in " ,\t\r\n":
            pos += 1
        elif char.isalpha():
            command, index = char, 0
            pos += 1
            yield char
        elif command in "Aa" and index % 7 in (3, 4):
            index += 1
            pos += 1
            yield float(char)
        else:
            match = NUMBER.match(d, pos)
            if not match:
                raise ValueError(f"bad path data at {pos}: {d[pos:pos + 20]!r}")
            index += 1
            pos = match.end()
            yield float(match.group())


def absolute(d: str) -> list[Segment]:
    """Every segment with an upper-case command and absolute coordinates."""
    out: list[Segment] = []
    x = y = start_x = start_y = 0.0
    stream = list(tokens(d))
    i = 0
    command = ""
    while i < len(stream):
        item = stream[i]
        if isinstance(item, str):
            command = item
            i += 1
            if command in "Zz":
                out.append(("Z", []))
                x, y = start_x, start_y
                continue
        elif command in "Mm":
            command = "l" if command == "m" else "L"  # pairs after a move are lines
        upper = command.upper()
        count = ARGS[upper]
        args = [float(v) for v in stream[i:i + count]]  # type: ignore[arg-type]
        i += count
        relative = command.islower()
        if upper == "H":
            x = args[0] + (x if relative else 0)
            out.append(("L", [x, y]))
            continue
        if upper == "V":
            y = args[0] + (y if relative else 0)
            out.append(("L", [x, y]))
            continue
        if upper == "A":
            end = [args[5] + (x if relative else 0), args[6] + (y if relative else 0)]
            out.append(("A", [*args[:5], *end]))
            x, y = end
            continue
        points = [v + ((x if k % 2 == 0 else y) if relative else 0) for k, v in enumerate(args)]
        out.append((upper, points))
        x, y = points[-2], points[-1]
        if upper == "M":
            start_x, start_y = x, y
            if command in "Mm":
                command = "l" if relative else "L"
    return out


def _number(value: float, places: int) -> str:
    text = f"{round(value, places):.{places}f}" if places else str(round(value))
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    if text.startswith("0."):
        text = text[1:]
    elif text.startswith("-0."):
        text = "-" + text[2:]
    return text


def _join(numbers: list[str]) -> str:
    text = ""
    for k, number in enumerate(numbers):
        if k and not number.startswith("-") and not (
            number.startswith(".") and "." in numbers[k - 1]
        ):
            text += " "
        text += number
    return text


def rounded(d: str, scale: float = 1.0, places: int = 0) -> str:
    """``d`` scaled by ``scale`` and rounded to ``places`` decimals, written short."""
    out = ""
    x = y = start_x = start_y = 0.0
    last = ""

    def r(value: float) -> float:
        return round(value * scale, places)

    for command, args in absolute(d):
        if command == "Z":
            out += "z"
            x, y = start_x, start_y
            last = "z"
            continue
        if command == "A":
            end = [r(args[5]), r(args[6])]
            head = [_number(args[0] * scale, places), _number(args[1] * scale, places),
                    _number(args[2], 0), str(int(args[3])), str(int(args[4]))]
            absolute_text = "A" + _join([*head, *(_number(v, places) for v in end)])
            relative_text = "a" + _join([*head, _number(end[0] - x, places),
                                         _number(end[1] - y, places)])
            text = min(relative_text, absolute_text, key=len)
            out += " " + text[1:] if text[0] == last else text
            x, y = end
            last = text[0]
            continue
        points = [r(v) for v in args]
        if command == "L" and points[1] == y and points[0] != x:
            forms = ["H" + _number(points[0], places), "h" + _number(points[0] - x, places)]
        elif command == "L" and points[0] == x:
            forms = ["V" + _number(points[1], places), "v" + _number(points[1] - y, places)]
        else:
            rel = [p - (x if k % 2 == 0 else y) for k, p in enumerate(points)]
            forms = [command + _join([_number(p, places) for p in points]),
                     command.lower() + _join([_number(p, places) for p in rel])]
        text = min(forms, key=len)
        letter, body = text[0], text[1:]
        if letter == last and letter not in "Mm":
            # the same command again: its letter may be left out
            out += body if body.startswith("-") else " " + body
        else:
            out += text
        last = letter
        x, y = points[-2], points[-1]
        if command == "M":
            start_x, start_y = x, y
    return out
