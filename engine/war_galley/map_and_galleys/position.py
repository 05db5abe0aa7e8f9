"""Where a galley lies (4.2): bow hex and facing; a double counter also fills its stern hex.

Notation, bow first (geometry.md): a double counter is `2319-2320` (bow 2319,
stern 2320), a single counter `2319/0` (hex 2319, facing 0). On multi-sheet
maps each hex carries its sheet letter, `N3719-N3720`. When reading, the stern
may be shortened as the scenario book does (`4022-3`, `4523-24`) and may omit
a sheet letter it shares with the bow (`N3719-3720`); printing is always full.
"""

from __future__ import annotations

import enum
import re

import msgspec

from engine.errors import NotationError
from engine.memo import kept_property
from engine.war_galley.map_and_galleys.hexes import (
    DIRECTIONS,
    SINGLE_SHEET,
    Direction,
    Hex,
    MapSpec,
    direction_to,
    format_hex,
    neighbour,
    neighbours,
    parse_hex,
)


class Side(enum.Enum):
    """Port (left) or starboard (right) of a galley (2.5). `delta` turns a facing."""

    # Members are singletons: hash them by identity, in C (Enum's own __hash__ is Python-level, and
    # the rules key dicts by these millions of times a game). No rule may depend on a set's order.
    __hash__ = object.__hash__

    PORT = "port"
    STARBOARD = "starboard"

    @property
    def delta(self) -> int:
        return -1 if self is Side.PORT else 1

    @property
    def other(self) -> Side:
        return Side.STARBOARD if self is Side.PORT else Side.PORT


SIDES: tuple[Side, Side] = (Side.PORT, Side.STARBOARD)


class Around(enum.Enum):
    """The hexes around a galley (4.2): 8 for a double counter, 6 for a single one."""

    # Members are singletons: hash them by identity, in C (Enum's own __hash__ is Python-level, and
    # the rules key dicts by these millions of times a game). No rule may depend on a set's order.
    __hash__ = object.__hash__

    BOW = "bow"
    BOW_FLANK = "bow/flank"
    FLANK = "flank"  # midship flank: double counters only
    STERN_FLANK = "stern/flank"
    STERN = "stern"


class Position(msgspec.Struct, frozen=True, order=True, dict=True):
    """A galley's bow hex and facing (the direction its bow points); `double`: two hexes.

    The geometry below is asked millions of times a game of a few thousand
    positions, so each is worked out once per (immutable) position and kept
    on it (`dict=True` gives the struct a place for kept properties; they
    are not fields: not encoded, not compared).
    """

    bow: Hex
    facing: Direction
    double: bool = True

    @kept_property
    def stern(self) -> Hex:
        """The stern hex of a double counter; a single counter's one hex."""
        return neighbour(self.bow, self.facing + 3) if self.double else self.bow

    @kept_property
    def hexes(self) -> tuple[Hex, ...]:
        """The hexes the counter fills, bow first."""
        return (self.bow, self.stern) if self.double else (self.bow,)

    def around(self, where: Around, side: Side | None = None) -> Hex:
        """One hex around the galley (geometry.md); `side` for the flank kinds. Each is worked out when
        first asked: most askers want one or two of a position's eight (a Line Astern its stern's)."""
        found = self._around.get((where, side))
        if found is None:
            found = self._work_out(where, side)  # raises for a kind the counter has not
            self._around[(where, side)] = found
        return found

    def _work_out(self, where: Around, side: Side | None) -> Hex:
        d = self.facing
        if where is Around.BOW:
            return neighbour(self.bow, d)
        if where is Around.STERN:
            return neighbour(self.stern, d + 3)
        if side is None:
            raise ValueError(f"{where.value} hex needs a side")
        s = side.delta
        if where is Around.BOW_FLANK:
            return neighbour(self.bow, d + s)
        if where is Around.FLANK:
            if not self.double:
                raise ValueError("a single counter has no midship flank hex")
            return neighbour(self.bow, d + 2 * s)
        return neighbour(self.stern, d + 2 * s)  # stern/flank

    @kept_property
    def _around(self) -> dict[tuple[Around, Side | None], Hex]:
        return {}  # filled by `around` (a race can only work one hex out twice)

    def surrounding(self) -> tuple[tuple[Around, Side | None, Hex], ...]:
        """Every hex around the galley with what it is to the galley (4.2)."""
        return self._surrounding

    @kept_property
    def _surrounding(self) -> tuple[tuple[Around, Side | None, Hex], ...]:
        kinds: list[tuple[Around, Side | None]] = [(Around.BOW, None)]
        kinds += [(Around.BOW_FLANK, s) for s in SIDES]
        if self.double:
            kinds += [(Around.FLANK, s) for s in SIDES]
        kinds += [(Around.STERN_FLANK, s) for s in SIDES]
        kinds.append((Around.STERN, None))
        return tuple((where, side, self._work_out(where, side)) for where, side in kinds)

    @kept_property
    def near(self) -> frozenset[Hex]:
        """Every neighbour of any of the galley's hexes (for a double counter: its own two as well)."""
        hexes = self.hexes
        return frozenset(neighbours(hexes[0]) + neighbours(hexes[1]) if len(hexes) == 2 else neighbours(hexes[0]))

    def adjacent(self) -> frozenset[Hex]:
        """The hexes adjacent to any hex of the galley, its own excluded."""
        return self._adjacent

    @kept_property
    def _adjacent(self) -> frozenset[Hex]:
        return frozenset(h for _, _, h in self.surrounding())


def double_at(bow: Hex, stern: Hex) -> Position:
    """The double counter with this bow and stern; ValueError if they do not touch."""
    facing = direction_to(stern, bow)
    if facing is None:
        raise ValueError(f"bow {bow} and stern {stern} are not adjacent")
    return Position(bow, facing, True)


_POSITION = re.compile(r"\s*([A-Za-z]?\s*\d{4})\s*(?:-\s*([A-Za-z]?)\s*(\d{1,4})|/\s*(\d))\s*")


def parse_position(text: str, map_: MapSpec = SINGLE_SHEET) -> Position:
    """Read `2319-2320` (double, bow first), `4022-3` (shortened stern) or `2319/0` (single)."""
    match = _POSITION.fullmatch(text)
    if match is None:
        raise NotationError(
            f"not a galley position: {text!r} (expected bow-stern like 2319-2320, or hex/facing like 2319/0)"
        )
    bow_text, stern_sheet, stern_digits, facing = match.groups()
    bow_number = parse_hex(bow_text)
    bow = map_.locate(bow_number)
    if facing is not None:
        if int(facing) > 5:
            raise NotationError(f"facing {facing} in {text!r}: facings run 0..5")
        return Position(bow, DIRECTIONS[int(facing)], False)
    digits = f"{bow_number.col:02d}{bow_number.row:02d}"
    stern_text = (stern_sheet or bow_number.sheet) + digits[: 4 - len(stern_digits)] + stern_digits
    stern = map_.locate(parse_hex(stern_text))
    try:
        return double_at(bow, stern)
    except ValueError:
        raise NotationError(f"{text!r}: bow and stern hexes are not adjacent") from None


def format_position(position: Position, map_: MapSpec = SINGLE_SHEET) -> str:
    """Write a position in full, bow first."""
    bow = format_hex(map_.number(position.bow))
    if not position.double:
        return f"{bow}/{int(position.facing)}"
    return f"{bow}-{format_hex(map_.number(position.stern))}"
