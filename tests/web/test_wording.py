"""One word for a player's move in each language: "coup" in French, "Zug" in German.

The French and German pages once said "coups" in one sentence and "Actions" in the next
column header ("Züge" beside "Aktionen"), as if they were two different things. The
English page says "action" (the rule book's word) throughout."""

from __future__ import annotations

import re
from pathlib import Path

WEB_JS = Path(__file__).resolve().parents[2] / "web" / "js"
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def block(text: str, start: str, end: str) -> str:
    """The text between the line that starts a language's table and the next one."""
    begin = text.index(start)
    return text[begin:text.index(end, begin + len(start))]


def sentences(language: str) -> list[str]:
    """Every string literal of that language's word tables (first page, solo, history)."""
    own = (WEB_JS / f"i18n-{language}.js").read_text()  # the first page's, on demand
    solo = (WEB_JS / "solo-words.js").read_text()
    past = (WEB_JS / "history-words.js").read_text()  # a player's past, replays, redo
    tables = {
        "fr": [block(own, "export default {", "\n};"), block(solo, "\n  fr: {", "\n  de: {"),
               block(past, "\n  fr: {", "\n  de: {")],
        "de": [block(own, "export default {", "\n};"), block(solo, "\n  de: {", "\n};"),
               block(past, "\n  de: {", "\n});")],
    }[language]
    # "{actions}" is a placeholder's name, not a word the page shows.
    return [re.sub(r"\{\w+\}", "#", s) for table in tables for s in STRING.findall(table)]


def test_french_says_coup_for_a_move() -> None:
    said = sentences("fr")
    assert any(re.search(r"\bcoups?\b", s, re.I) for s in said)  # the scan finds the word
    assert [s for s in said if re.search(r"\bactions?\b", s, re.I)] == []


def test_german_says_zug_for_a_move() -> None:
    said = sentences("de")
    assert any(re.search(r"\bZ(ug|üge|ügen)\b", s) for s in said)
    assert [s for s in said if re.search(r"Aktion", s)] == []
