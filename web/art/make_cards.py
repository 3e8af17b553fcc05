"""Writes the card art the client uses: web/img/cards.svg (one sprite) and web/img/back.svg.

    python web/art/make_cards.py

The court pictures (J, Q, K), the suit pips and the rank glyphs are Adrian Kennard's
(CC0, https://www.me.uk/cards/), as vendored in kennard.json from the npm package
@letele/playing-cards (see README.md). Everything else — the pip layouts of the number
cards, the aces, the back — is drawn here. The output is committed: the client has no
build step, and this script only runs again when the art changes.

The sprite holds symbols, used by id from the page (web/js/face.js):
  ``s h d c``      the suit pips (viewBox -600 -600 1200 1200, fixed colours)
  ``r-A``…``r-K``  the rank glyphs, stroked in ``currentColor`` (viewBox -500 -500 1000 1000)
  ``2s``…``Th``    a number card's pips (viewBox -60 -66 120 132)
  ``As``…          an ace: one large pip
  ``Js``…``Kc``    a court picture in its frame (viewBox -92 -133 184 266)
The corner indexes are not in the art: the page draws them (rank glyph + pip) at a size
of its own, so they stay legible on a phone where the card is 36 px wide.
"""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from svgpath import rounded

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "img"
SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"

RED = "#c8102e"  # one red for pips, indexes and the courts' red
BLACK = "#16161d"
COLOURS = {"red": RED, "#000": BLACK, "#FC4": "#f6c343", "#44F": "#3848c8"}
SUITS = "shdc"
KENNARD_SUIT = {"s": "S", "h": "H", "d": "D", "c": "C"}
RANKS = "A23456789TJQK"
KENNARD_RANK = {"T": "10"}

# Courts: the picture's layers are in a 1300 x 2000 box; halving it and rounding to whole
# units moves no point by more than 0.06 px on a 120 px card, and halves the digits.
LAYER_SCALE = 0.5
FRAME = (-82.4, -130.4, 164.8, 260.8)  # where the picture sits in Kennard's 240 x 336 card

# Number cards: pip centres in a -60 -66 120 132 box; the lower half is drawn upside down.

ROWS3 = (-52, 0, 52)
ROWS4 = (-52, -17.3, 17.3, 52)
MID_HIGH, MID_LOW = -34.7, 34.7
PIP = 30
LAYOUTS: dict[str, list[tuple[float, float]]] = {
    "2": [(0, -52), (0, 52)],
    "3": [(0, -52), (0, 0), (0, 52)],
    "4": [(x, y) for y in (-52, 52) for x in (-29, 29)],
    "5": [*[(x, y) for y in (-52, 52) for x in (-29, 29)], (0, 0)],
    "6": [(x, y) for y in ROWS3 for x in (-29, 29)],
    "7": [*[(x, y) for y in ROWS3 for x in (-29, 29)], (0, -26)],
    "8": [*[(x, y) for y in ROWS3 for x in (-29, 29)], (0, -26), (0, 26)],
    "9": [*[(x, y) for y in ROWS4 for x in (-29, 29)], (0, 0)],
    "T": [*[(x, y) for y in ROWS4 for x in (-29, 29)], (0, MID_HIGH), (0, MID_LOW)],
}


def number(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def symbols(card: ET.Element) -> dict[str, ET.Element]:
    return {s.get("id", ""): s for s in card.iter(f"{SVG}symbol")}


def by_viewbox(card: ET.Element, viewbox: str) -> ET.Element:
    found = [s for s in symbols(card).values() if s.get("viewBox") == viewbox]
    assert len(found) == 1, viewbox
    return found[0]


def path_d(element: ET.Element) -> str:
    paths = list(element.iter(f"{SVG}path"))
    assert len(paths) == 1
    return paths[0].get("d", "")


def attributes(element: ET.Element, skip: tuple[str, ...] = ("d",)) -> str:
    text = ""
    for key, value in element.attrib.items():
        if key in skip:
            continue
        if key in ("fill", "stroke"):
            value = COLOURS.get(value, value)
        text += f' {key}="{value}"'
    return text


def pip_symbol(card: ET.Element, suit: str) -> str:
    d = rounded(path_d(by_viewbox(card, "-600 -600 1200 1200")))
    colour = RED if suit in "hd" else BLACK
    return (f'<symbol id="{suit}" viewBox="-600 -600 1200 1200">'
            f'<path fill="{colour}" d="{d}"/></symbol>')


def rank_symbol(card: ET.Element, rank: str) -> str:
    glyph = next(by_viewbox(card, "-500 -500 1000 1000").iter(f"{SVG}path"))
    d = rounded(glyph.get("d", ""))
    # A little bolder than the print original: the glyph is read at 12 px on a phone.
    return (f'<symbol id="r-{rank}" viewBox="-500 -500 1000 1000"><path d="{d}" fill="none" '
            'stroke="currentColor" stroke-width="100" stroke-linecap="square" '
            'stroke-miterlimit="1.5"/></symbol>')


def pip_use(suit: str, x: float, y: float, size: float = PIP) -> str:
    half = size / 2
    turn = f' transform="rotate(180 {number(x)} {number(y)})"' if y > 0 else ""
    return (f'<use href="#{suit}" x="{number(x - half)}" y="{number(y - half)}" '
            f'width="{size}" height="{size}"{turn}/>')


def number_symbol(rank: str, suit: str) -> str:
    pips = "".join(pip_use(suit, x, y) for x, y in LAYOUTS[rank])
    return f'<symbol id="{rank}{suit}" viewBox="-60 -66 120 132">{pips}</symbol>'


def ace_symbol(suit: str) -> str:
    if suit == "s":  # the ace of spades gets its traditional ornament: a ringed pip
        body = (f'<use href="#s" x="-500" y="-500" width="1000" height="1000" stroke="{BLACK}" '
                'stroke-width="90" stroke-dasharray="90,90" stroke-linecap="round"/>'
                '<use href="#s" x="-500" y="-500" width="1000" height="1000" stroke="#fff" '
                'stroke-width="45"/><use href="#s" x="-500" y="-500" width="1000" height="1000"/>')
        return f'<symbol id="As" viewBox="-620 -620 1240 1240">{body}</symbol>'
    return (f'<symbol id="A{suit}" viewBox="-900 -900 1800 1800"><use href="#{suit}" '
            'x="-600" y="-600" width="1200" height="1200"/></symbol>')


def court_symbol(card: ET.Element, rank: str, suit: str) -> str:
    """Kennard's picture: each layer drawn, then drawn again turned round (as he does)."""
    pip_id = by_viewbox(card, "-600 -600 1200 1200").get("id", "")
    by_id = symbols(card)
    order: list[str] = []
    for use in card.iter(f"{SVG}use"):
        ref = (use.get(XLINK) or use.get("href") or "")[1:]
        if ref in by_id and by_id[ref].get("viewBox") == "0 0 1300 2000" and ref not in order:
            order.append(ref)
    x, y, w, h = FRAME
    sx, sy = w / 1300 / LAYER_SCALE, h / 2000 / LAYER_SCALE
    layers, draws = [], []
    for k, ref in enumerate(order):
        layer_id = f"{rank}{suit}{k}"
        parts = []
        for element in by_id[ref]:
            if element.tag == f"{SVG}path":
                d = rounded(element.get("d", ""), LAYER_SCALE)
                extra = attributes(element)
                width = element.get("stroke-width")
                if width:
                    extra = extra.replace(f'stroke-width="{width}"',
                                          f'stroke-width="{number(float(width) * LAYER_SCALE)}"')
                parts.append(f'<path{extra} d="{d}"/>')
            elif element.tag == f"{SVG}use":
                assert (element.get(XLINK) or "")[1:] == pip_id
                keep = "".join(f' {key}="{value}"' for key, value in element.attrib.items()
                               if key != XLINK)
                parts.append(f'<use href="#{suit}"{keep}/>')
            else:
                raise ValueError(f"unexpected {element.tag} in a court layer")
        body = "".join(parts)
        if any(p.startswith("<use") for p in parts):
            body = f'<g transform="scale({LAYER_SCALE})">{body}</g>' if all(
                p.startswith("<use") for p in parts) else _scaled_uses(parts)
        layers.append(f'<g id="{layer_id}">{body}</g>')
        draws.append(f'<use href="#{layer_id}"/><use href="#{layer_id}" transform="rotate(180)"/>')
    frame = (f'<path d="M{number(x)} {number(y)}h{number(w)}v{number(h)}h{number(-w)}z" '
             f'fill="none" stroke="{COLOURS["#44F"]}"/>')
    corner = pip_use(suit, -91.768 + 27.84, -132.16 + 27.84, 55.68)
    corner_turned = f'<g transform="rotate(180)">{corner}</g>'
    turn = f"rotate(180 {number(-x / sx)} {number(-y / sy)})"  # about the card's centre
    # A use clones its target without the target's ancestors' transforms: the layers sit
    # bare in defs and the one group below places both draws of each.
    return (f'<symbol id="{rank}{suit}" viewBox="-92 -133 184 266"><defs>{"".join(layers)}</defs>'
            f'<g transform="translate({number(x)} {number(y)}) scale({number(sx)} {number(sy)})">'
            f'{"".join(draws).replace("rotate(180)", turn)}</g>'
            f'{frame}{corner}{corner_turned}</symbol>')


def _scaled_uses(parts: list[str]) -> str:
    """Paths are already scaled; the pips inside a layer are placed in the 1300 x 2000 box."""
    return "".join(p if p.startswith("<path") else f'<g transform="scale({LAYER_SCALE})">{p}</g>'
                   for p in parts)


def back() -> str:
    """The back: navy with a gold frame, a fine lattice and a spider in a medallion."""
    legs = []
    for side in (-1, 1):
        for k, (dx, dy, ex, ey) in enumerate(((22, -14, 34, -30), (24, -4, 40, -10),
                                              (24, 6, 40, 16), (20, 14, 30, 34))):
            legs.append(f"M{side * 6} {-2 + k * 3}Q{side * dx} {dy} {side * ex} {ey}")
    spider = (f'<g transform="translate(125 175)" fill="#e8cf8a" stroke="#e8cf8a">'
              f'<path d="{"".join(legs)}" fill="none" stroke-width="2.6" stroke-linecap="round"/>'
              '<ellipse cx="0" cy="-9" rx="6.5" ry="6"/><ellipse cx="0" cy="8" rx="10" ry="13"/>'
              '</g>')
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 250 350" preserveAspectRatio="none">'
        '<!-- Spider Duel card back, drawn by web/art/make_cards.py -->'
        '<defs><pattern id="l" width="16" height="16" patternUnits="userSpaceOnUse">'
        '<path d="M8 0 16 8 8 16 0 8z" fill="none" stroke="#3d63b0" stroke-width="1.2"/>'
        '<circle cx="8" cy="8" r="1.3" fill="#5b80c9"/></pattern>'
        '<radialGradient id="g" cx=".5" cy=".45" r=".7"><stop offset="0" stop-color="#2b4d93"/>'
        '<stop offset="1" stop-color="#152b5c"/></radialGradient></defs>'
        '<rect width="250" height="350" fill="#fbfaf6"/>'
        '<rect x="9" y="9" width="232" height="332" rx="12" fill="url(#g)"/>'
        '<rect x="18" y="18" width="214" height="314" rx="8" fill="url(#l)"/>'
        '<rect x="18" y="18" width="214" height="314" rx="8" fill="none" stroke="#e8cf8a" '
        'stroke-width="2.5"/>'
        '<circle cx="125" cy="175" r="52" fill="#1b3570" stroke="#e8cf8a" stroke-width="3"/>'
        '<circle cx="125" cy="175" r="44" fill="none" stroke="#e8cf8a" stroke-width="1" '
        'opacity=".6"/>'
        f'{spider}</svg>\n'
    )


def sprite(kennard: dict[str, str]) -> str:
    cards = {name: ET.fromstring(text) for name, text in kennard.items()}
    parts = ['<svg xmlns="http://www.w3.org/2000/svg">',
             "<!-- Spider Duel card faces: web/art/make_cards.py wrote this file. Court "
             "pictures, pips and rank glyphs: Adrian Kennard, CC0 (https://www.me.uk/cards/), "
             "via the npm package @letele/playing-cards; see web/art/README.md. -->"]
    for suit in SUITS:
        parts.append(pip_symbol(cards[f"{KENNARD_SUIT[suit]}{'2' if suit != 's' else 'A'}"], suit))
    for rank in RANKS:
        parts.append(rank_symbol(cards[f"S{KENNARD_RANK.get(rank, rank)}"], rank))
    for suit in SUITS:
        parts.append(ace_symbol(suit))
        parts.extend(number_symbol(rank, suit) for rank in "23456789T")
        for rank in "JQK":
            parts.append(court_symbol(cards[f"{KENNARD_SUIT[suit]}{rank}"], rank, suit))
    parts.append("</svg>\n")
    return "".join(parts)


def main() -> None:
    kennard = json.loads((HERE / "kennard.json").read_text())
    OUT.mkdir(exist_ok=True)
    text = sprite(kennard)
    assert not re.search(r"\d\.\d{4,}", text), "a number kept too many decimals"
    (OUT / "cards.svg").write_text(text)
    (OUT / "back.svg").write_text(back())
    print(f"cards.svg {len(text)} bytes, back.svg {len(back())} bytes")


if __name__ == "__main__":
    main()
