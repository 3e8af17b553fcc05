"""No function of the browser client over 150 lines (issue 22): a long closure is split
into parts that share its state (as createBoard in web/js/board.js is). The functions still
longer are listed with their length, so that they can only shrink or leave the list.

Counted: every `function` (declared or an expression, nested ones too) and every arrow
function with a block body assigned to a `const`, `let` or `var`; from the line of its
name to the line of its closing brace."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"
FUNCTION_LINES_MAX = 150
# Still too long, with their length today: take one off when it is split.
KNOWN_LONG: dict[str, int] = {}
START = re.compile(
    r"\bfunction\b\s*\*?\s*(?P<fn>[\w$]*)\s*\("
    r"|\b(?:const|let|var)\s+(?P<arrow>[\w$]+)\s*=\s*(?:async\s+)?(?=[(\w$])")
# Where a `/` starts a regular expression rather than a division: after these characters.
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}


def code_only(text: str) -> str:
    """The text with comments, strings and regular expressions blanked out (newlines
    kept, so that lines still count); the code inside a template's `${...}` stays."""
    out = list(text)
    stack: list[str] = []  # open templates (`) and the braces opened in code
    i, n = 0, len(text)
    last = ""  # the last character of code that is not a space

    def blank(start: int, end: int) -> None:
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        in_template = bool(stack) and stack[-1] == "`"
        if in_template:
            if c == "\\":
                blank(i, i + 2)
                i += 2
            elif c == "`":
                stack.pop()
                i += 1
                last = "`"
            elif text.startswith("${", i):
                stack.append("${")
                i += 2
                last = "{"
            else:
                blank(i, i + 1)
                i += 1
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            blank(i, end)
            i = end
        elif c in "'\"":
            k = i + 1
            while k < n and text[k] != c:
                k += 2 if text[k] == "\\" else 1
            blank(i + 1, k)
            i = k + 1
            last = c
        elif c == "/" and last in REGEX_AFTER:
            k, in_class = i + 1, False
            while k < n and (in_class or text[k] != "/"):
                in_class = (in_class or text[k] == "[") and text[k] != "]"
                k += 2 if text[k] == "\\" else 1
            blank(i + 1, k)
            i = k + 1
            last = "/"
        else:
            if c == "`":
                stack.append("`")
            elif c == "{":
                stack.append("{")
            elif c == "}" and stack:
                stack.pop()  # a brace of code, or the end of a template's ${...}
            if not c.isspace():
                last = c
            i += 1
    return "".join(out)


def closing(code: str, start: int, open_: str, close: str) -> int:
    """The index of the bracket that closes the one at `start`."""
    depth = 0
    for k in range(start, len(code)):
        depth += (code[k] == open_) - (code[k] == close)
        if depth == 0:
            return k
    raise ValueError(f"unbalanced {open_} at {start}")


def function_lengths(text: str) -> dict[str, int]:
    """Each function's length in lines, keyed `name:line` (the longest of a name's)."""
    code = code_only(text)
    found: dict[str, int] = {}
    for match in START.finditer(code):
        k = match.end()
        if match["fn"] is not None:
            k = closing(code, k - 1, "(", ")") + 1
        else:  # an arrow function: its parameters, `=>`, then a block
            if code[k] == "(":
                k = closing(code, k, "(", ")") + 1
            else:
                k = re.compile(r"[\w$]+").match(code, k).end()
            arrow = re.compile(r"\s*=>\s*").match(code, k)
            if not arrow:
                continue
            k = arrow.end()
        body = re.compile(r"\s*").match(code, k).end()
        if body >= len(code) or code[body] != "{":
            continue
        end = closing(code, body, "{", "}")
        first = code.count("\n", 0, match.start()) + 1
        name = match["fn"] or match["arrow"] or "(anonymous)"
        found[f"{name}:{first}"] = code.count("\n", match.start(), end) + 1
    return found


def long_functions() -> dict[str, int]:
    return {f"{path.relative_to(WEB)}:{where}": lines
            for path in sorted(WEB.rglob("*.js"))
            for where, lines in function_lengths(path.read_text()).items()
            if lines > FUNCTION_LINES_MAX}


def test_the_measure_sees_each_kind_of_function() -> None:
    text = """const re = /[/{]/g; // a { in a comment
export function a({ x } = {}) {
  const s = "}{"; const u = `${x ? `}` : "{"}
  }`;
  const b = async (y) => {
    return y / 2;
  };
}
const c = x => { return x; };
const d = () => ({});
"""
    assert code_only(text).count("{") == code_only(text).count("}")
    assert function_lengths(text) == {"a:2": 7, "b:5": 3, "c:9": 1}


def test_no_function_is_over_150_lines() -> None:
    found: dict[str, int] = {}
    for where, lines in long_functions().items():
        name = where.rsplit(":", 1)[0]
        found[name] = max(lines, found.get(name, 0))
    grown = {name: lines for name, lines in found.items() if lines > KNOWN_LONG.get(name, 0)}
    assert not grown, f"functions over {FUNCTION_LINES_MAX} lines: {grown}"
    gone = set(KNOWN_LONG) - set(found)
    assert not gone, f"no longer over {FUNCTION_LINES_MAX} lines, take off KNOWN_LONG: {gone}"
