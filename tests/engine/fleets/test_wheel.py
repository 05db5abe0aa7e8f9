"""Group wheels and free turns (version 3, docs/fleets-rules.md 5.4-5.5). DBA 2.2 practice, which the fragment
keeps ("Battles between fleets are fought just like battles between armies") and assumes ("Galleys may move as a
group straight backward (no wheeling or oblique moves)"): a group moves straight ahead or wheels, with at most half
a base sideways; a wheel is measured by the distance its outer front corner travels; an element moving singly
turns freely."""

from __future__ import annotations

import pytest

from engine.fleets import legal, notation, play
from engine.fleets.clicks import play_options
from engine.fleets.decisions import Move, Shift, Wheel
from engine.fleets.errors import IllegalOrder
from engine.fleets.geometry import Rect
from engine.fleets.table import Piece
from engine.fleets.wheel import quarter_arc
from tests.engine.fleets.support import E, N, S, W, Forced, at, battle, el

COLUMN = (el("B1", "Lib", 1200, 800, N, general=True), el("B2", "Lib", 1200, 640, N))
LINE = (el("B1", "Cat", 1200, 800, N, general=True), el("B2", "Cat", 1360, 800, N))


def test_the_wheel_is_measured_by_the_outer_front_corner() -> None:
    assert quarter_arc(160) == 252 and quarter_arc(320) == 503  # pi/2 x 160p = 251.3p; x 320p = 502.7p


def test_a_group_may_wheel_and_may_not_slide_sideways_beyond_half_a_base() -> None:
    """The acceptance probe: the column wheels right about its right front corner (1280,880), swinging forward."""
    state = battle(*COLUMN, wind="S")
    after, events = play.apply(state, Wheel(["B1", "B2"], "right"), Forced())
    assert at(after, "B1") == (1200, 960, E) and at(after, "B2") == (1040, 960, E)
    assert events[0].cost == 252 and events[0].order == "B1 B2 wheel right"
    after, events = play.apply(state, Wheel(["B1", "B2"], "left", 148), Forced())  # 252p + 148p = 400p
    assert at(after, "B1") == (1052, 960, W) and at(after, "B2") == (1212, 960, W)
    with pytest.raises(IllegalOrder, match=r"measures 401p .* more than 400p"):
        play.apply(state, Wheel(["B1", "B2"], "left", 149), Forced())
    line = battle(el("B1", "Lib", 1200, 800, N, general=True), el("B2", "Lib", 1360, 800, N), wind="S")
    play.apply(line, Shift(["B1", "B2"], 80, 300), Forced())
    with pytest.raises(IllegalOrder, match=r"sideways at most half a base \(80p\), not 81p"):
        play.apply(line, Shift(["B1", "B2"], 81, 300), Forced())


def test_a_line_two_bases_wide_needs_more_than_any_move_to_wheel() -> None:
    with pytest.raises(IllegalOrder, match=r"measures 503p .* more than 300p \(B1: speed 300p\) \(rules 5.4, group wheel\)"):
        play.apply(battle(*LINE, wind="S"), Wheel(["B1", "B2"], "right"), Forced())


def test_the_wheel_may_not_sweep_over_a_base_land_or_the_table_edge() -> None:
    # the rear corner of the column swings out to 1280 - sqrt(160^2 + 320^2) = 922p: a base at 900 is struck
    beside = el("B3", "Lng", 900, 720, N)
    with pytest.raises(IllegalOrder, match="sweep over B3"):
        play.apply(battle(*COLUMN, beside, wind="S"), Wheel(["B1", "B2"], "right"), Forced())
    clear = el("B3", "Lng", 850, 720, N)  # its nearest corner, 930,800, is 359p from the pivot: clear
    play.apply(battle(*COLUMN, clear, wind="S"), Wheel(["B1", "B2"], "right"), Forced())
    behind = el("B3", "Lng", 1200, 400, N)  # behind the column: the wheel turns away from it
    play.apply(battle(*COLUMN, behind, wind="S"), Wheel(["B1", "B2"], "right"), Forced())
    reef = Piece("reef", Rect(1000, 900, 1100, 1000), 0)
    with pytest.raises(IllegalOrder, match="sweep over land"):
        play.apply(battle(*COLUMN, pieces=(reef,), wind="S"), Wheel(["B1", "B2"], "right"), Forced())
    edge = (el("B1", "Lib", 200, 800, N, general=True), el("B2", "Lib", 200, 640, N))
    with pytest.raises(IllegalOrder, match="swing off the table"):
        play.apply(battle(*edge, coasts=(), wind="S"), Wheel(["B1", "B2"], "right"), Forced())


def test_a_wheel_upwind_or_partly_upwind_loses_100p() -> None:
    """Fragment: "Naval elements which make even a part of their move upwind ... must move at -100p": a wheel
    right from N turns its way from north to east, upwind with the wind from the east (blowing west)."""
    with pytest.raises(IllegalOrder, match=r"measures 352p .* more than 300p \(B1: speed 400p, -100p upwind"):
        play.apply(battle(*COLUMN, wind="E"), Wheel(["B1", "B2"], "right", 100), Forced())
    play.apply(battle(*COLUMN, wind="E"), Wheel(["B1", "B2"], "right", 48), Forced())


def test_wheels_are_listed_written_and_offered_as_clicks() -> None:
    state = battle(*COLUMN, el("R1", "Cat", 400, 2000, S, general=True), wind="S")
    wheels = [d for d in legal.legal(state) if isinstance(d, Wheel)]
    assert Wheel(["B1", "B2"], "right") in wheels and Wheel(["B1", "B2"], "left", 148) in wheels
    for d in wheels:
        assert notation.parse_decision(notation.format_decision(d)) == d
    assert notation.parse_decision("b1 b2 wheel left ahead 100") == Wheel(["B1", "B2"], "left", 100)
    options = play_options(state, ["p:B2"])["options"]
    assert any(o["label"] == "B1 B2 wheel right: 252p" for o in options)


def test_version_2_has_no_wheel() -> None:
    with pytest.raises(IllegalOrder, match="version 2 has no group wheel"):
        play.apply(battle(*COLUMN, wind="S", version="2"), Wheel(["B1", "B2"], "right"), Forced())
    assert not any(isinstance(d, Wheel) for d in legal.legal(battle(*COLUMN, wind="S", version="2")))


def test_a_single_element_turns_freely() -> None:
    """DBA 2.2: an element moving singly turns as it likes; its move is measured along its path (version 3). Version
    2 charged 178p a quarter turn, so a Cataphract (300p) could never reverse and move in a bound."""
    cat = el("B1", "Cat", 1200, 800, N, general=True)
    after, events = play.apply(battle(cat, wind="E"), Move("B1", turn=S, to=[[1200, 600]]), Forced())
    assert at(after, "B1") == (1200, 600, S) and events[0].cost == 200
    with pytest.raises(IllegalOrder, match="measures 556p"):  # 356p about-face + 200p
        play.apply(battle(cat, wind="E", version="2"), Move("B1", turn=S, to=[[1200, 600]]), Forced())
