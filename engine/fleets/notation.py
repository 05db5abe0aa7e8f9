"""Order lines a person can write in an email (docs/fleets-orders.md), and back. Every line round-trips.

    fleet Cat Cat Lib Lib Lib Lib Lib Lng Lng Wr Wr Tr general 1
    terrain coast S 100 / island 900,1000 1400,1300 100
    wind from SW
    attack from N
    place G3 at 1200,80 facing N        place rest
    G3 turn E to 1100,700 to 1200,900   G3 contact P5    G3 to 900,700 contact P5    G3 contact P5 rear
    G1 G2 G3 by 0,200                   G1 G2 back 100      G1 G2 wheel right    G1 G2 wheel left ahead 100
    G3 drift                            end              end fight G3 G1      concede
"""

from __future__ import annotations

import re

from engine.fleets.decisions import (
    AttackFrom, Back, ChooseFleet, Concede, Decision, Drift, End, Move, Place, PlaceRest, SetTerrain, Shift, Wheel, WindFrom,
)
from engine.fleets.errors import NotationError
from engine.fleets.geometry import HEADING_NAMES, HEADING_OF, placing
from engine.numerals import shown, whole

ID = re.compile(r"^[A-Za-z]+[0-9]+$")
POINT = re.compile(r"^-?[0-9]+,-?[0-9]+$")
EDGES = ("left", "right", "rear")
# Far beyond any table (rules.toml: 2,400 paces square): a typed distance past it is refused here, before
# the rules do sums with it (int() of a 5,000-digit number raised ValueError).
MOST_PACES = 999_999


def _heading(word: str) -> int:
    w = word.upper()
    if w in HEADING_OF:
        return HEADING_OF[w]
    degrees = whole(w, 359)  # not `str.isdigit`: it passes `²`, which `int` refuses
    if degrees in HEADING_NAMES:
        return degrees
    raise NotationError(f"{word!r} is not a facing (N, E, S or W)")


def _point(word: str) -> list[int]:
    if not POINT.match(word):
        raise NotationError(f"{word!r} is not a point x,y in paces (e.g. 1200,600)")
    x, y = (whole(n, MOST_PACES, negative=True) for n in word.split(","))
    if x is None or y is None:
        raise NotationError(f"{shown(word)}: a point's paces run from -{MOST_PACES} to {MOST_PACES}")
    return [x, y]


def _int(word: str, what: str) -> int:
    if not re.fullmatch(r"-?[0-9]+", word):
        raise NotationError(f"{shown(word)} is not a whole number of paces ({what})")
    paces = whole(word, MOST_PACES, negative=True)
    if paces is None:
        raise NotationError(f"{shown(word)} paces ({what}): at most {MOST_PACES}")
    return paces


def _ident(word: str) -> str:
    if not ID.match(word):
        raise NotationError(f"{word!r} is not an element id (e.g. G3)")
    return word.upper()


def parse_decision(text: str) -> Decision:
    words = text.replace(";", " ").split()
    if not words:
        raise NotationError("an empty order")
    head = words[0].lower()
    if head == "end" and len(words) == 1:
        return End()
    if head == "end" and words[1].lower() == "fight" and len(words) > 2:
        return End([_ident(w) for w in words[2:]])
    if head == "concede" and len(words) == 1:
        return Concede()
    if head == "terrain":
        return _terrain(" ".join(words[1:]))
    if head == "fleet" and len(words) >= 4 and words[-2].lower() == "general":
        general = whole(words[-1], 99)
        if general is None:
            raise NotationError(f"{shown(words[-1])}: the general is the number of one of the fleet's elements")
        return ChooseFleet([_type(w) for w in words[1:-2]], general)
    if head == "wind" and len(words) == 3 and words[1].lower() == "from":
        return WindFrom(words[2].upper())
    if head == "attack" and len(words) == 3 and words[1].lower() == "from":
        return AttackFrom(words[2].upper())
    if head == "place":
        if len(words) == 2 and words[1].lower() == "rest":
            return PlaceRest()
        if len(words) == 6 and words[2].lower() == "at" and words[4].lower() == "facing":
            x, y = _point(words[3])
            return Place(_ident(words[1]), x, y, _heading(words[5]))
        raise NotationError("write `place G3 at 1200,80 facing N` or `place rest`")
    ids = []
    while words and ID.match(words[0]):
        ids.append(_ident(words.pop(0)))
    if not ids:
        raise NotationError(f"unknown order {text.strip()!r} (see docs/fleets-orders.md)")
    rest = [w.lower() for w in words]
    if rest == ["drift"] and len(ids) == 1:
        return Drift(ids[0])
    if len(rest) == 2 and rest[0] == "back":
        return Back(ids, _int(rest[1], "back"))
    if len(rest) in (2, 4) and rest[0] == "wheel" and rest[1] in ("left", "right"):
        if len(rest) == 4 and rest[2] != "ahead":
            raise NotationError("write `G1 G2 wheel right` or `G1 G2 wheel right ahead 100`")
        return Wheel(ids, rest[1], _int(rest[3], "ahead") if len(rest) == 4 else 0)
    if len(rest) == 2 and rest[0] == "by":
        dx, dy = _point(rest[1])
        return Shift(ids, dx, dy)
    if len(ids) != 1:
        raise NotationError("a group moves with `by DX,DY`, `wheel left|right [ahead D]` or `back D`")
    turn, to, contact, edge = None, [], None, "front"
    i = 0
    while i < len(rest):
        word = rest[i]
        if word == "turn" and i + 1 < len(rest) and turn is None and not to:
            turn = _heading(rest[i + 1])
        elif word == "to" and i + 1 < len(rest) and contact is None:
            to.append(_point(rest[i + 1]))
        elif word == "contact" and i + 1 < len(rest) and contact is None:
            contact = _ident(words[i + 1])
            if i + 2 < len(rest) and rest[i + 2] in EDGES and i + 3 == len(rest):
                edge = rest[i + 2]
                i += 1
            elif i + 2 != len(rest):
                raise NotationError(f"cannot read {' '.join(words[i:])!r}: `contact P5` [left|right|rear] ends the order")
        else:
            raise NotationError(f"cannot read {' '.join(words[i:])!r}: write `{ids[0]} [turn E] [to X,Y]... [contact P5]`")
        i += 2
    if turn is None and not to and contact is None:
        raise NotationError(f"what should {ids[0]} do? (`drift`, `to X,Y`, `turn E`, `contact P5`, `back D`)")
    return Move(ids[0], turn, to, contact, edge)


def _type(word: str) -> str:
    if not word.isascii() or not word.isalpha():
        raise NotationError(f"{shown(word)} is not an element type (e.g. Cat, Lib)")
    return word[0].upper() + word[1:].lower()


def _terrain(text: str) -> SetTerrain:
    coasts, pieces = [], []
    for part in [p.split() for p in text.split("/") if p.strip()]:
        kind = part[0].lower()
        if kind == "coast" and len(part) in (2, 3):
            edge = part[1].upper()
            coasts.append([edge, _int(part[2], "shallows") if len(part) == 3 else 0])
        elif kind in ("island", "reef", "peninsula") and len(part) in (3, 4):
            a, b = _point(part[1]), _point(part[2])
            pieces.append([kind, a[0], a[1], b[0], b[1], _int(part[3], "shallows") if len(part) == 4 else 0])
        else:
            raise NotationError(f"cannot read terrain {' '.join(part)!r}: `coast S 100` or `island X0,Y0 X1,Y1 SHALLOWS`")
    if not coasts:
        raise NotationError("terrain needs at least one `coast EDGE SHALLOWS`")
    return SetTerrain(coasts, pieces)


def format_decision(d: Decision) -> str:
    if isinstance(d, End):
        return "end" + (" fight " + " ".join(d.fight) if d.fight else "")
    if isinstance(d, Concede):
        return "concede"
    if isinstance(d, ChooseFleet):
        return f"fleet {' '.join(d.types)} general {d.general}"
    if isinstance(d, SetTerrain):
        parts = [f"coast {c[0]} {c[1]}" for c in d.coasts]
        parts += [f"{p[0]} {p[1]},{p[2]} {p[3]},{p[4]} {p[5]}" for p in d.pieces]
        return "terrain " + " / ".join(parts)
    if isinstance(d, WindFrom):
        return f"wind from {d.point}"
    if isinstance(d, AttackFrom):
        return f"attack from {d.edge}"
    if isinstance(d, PlaceRest):
        return "place rest"
    if isinstance(d, Place):
        return f"place {d.id} at {placing(d.x, d.y, d.heading)}"
    if isinstance(d, Drift):
        return f"{d.id} drift"
    if isinstance(d, Back):
        return f"{' '.join(d.ids)} back {d.distance}"
    if isinstance(d, Shift):
        return f"{' '.join(d.ids)} by {d.dx},{d.dy}"
    if isinstance(d, Wheel):
        return f"{' '.join(d.ids)} wheel {d.to}" + (f" ahead {d.ahead}" if d.ahead else "")
    if isinstance(d, Move):
        words = [d.id]
        if d.turn is not None:
            words += ["turn", HEADING_NAMES.get(d.turn, str(d.turn))]
        for p in d.to:
            words += ["to", f"{p[0]},{p[1]}"]
        if d.contact is not None:
            words += ["contact", d.contact] + ([d.edge] if d.edge != "front" else [])
        return " ".join(words)
    raise NotationError(f"no notation for {d!r}")
