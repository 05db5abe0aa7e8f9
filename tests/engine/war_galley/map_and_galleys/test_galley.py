"""Galley identity, positions and statuses (engine.war_galley.map_and_galleys.galley, engine.war_galley.map_and_galleys.position)."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError, RulesDataError
from engine.war_galley.map_and_galleys.galley import (
    Aground,
    Capture,
    Colour,
    End,
    Galley,
    GalleyId,
    GalleyType,
    MoveRecord,
    format_galley_id,
    parse_galley_id,
)
from engine.war_galley.map_and_galleys.hexes import DIRECTIONS, SINGLE_SHEET, Hex, MapSpec, neighbour
from engine.war_galley.map_and_galleys.position import Around, Position, Side, format_position, parse_position
from tests.engine.war_galley.movement_support import galley, ratings

galley_ids = st.builds(GalleyId, st.sampled_from(Colour), st.sampled_from(GalleyType), st.integers(1, 999))


@given(galley_ids)
def test_galley_ids_round_trip(galley_id: GalleyId) -> None:
    assert parse_galley_id(format_galley_id(galley_id)) == galley_id
    assert str(galley_id) == format_galley_id(galley_id)


@pytest.mark.parametrize(
    "text, colour, kind, number",
    [
        ("G3-12", Colour.GREEN, GalleyType.TRIREME, 12),
        ("Rcat3-5", Colour.RED, GalleyType.CATAPHRACTED_TRIREME, 5),
        ("RL2-3", Colour.RED, GalleyType.LIBURNIAN, 3),
        ("RRL-3", Colour.RED, GalleyType.REINFORCED_LEMBI, 3),
        ("RL-3", Colour.RED, GalleyType.LEMBI, 3),
        ("GTrm-1", Colour.GREEN, GalleyType.TREMIOLA, 1),
        ("G10-1", Colour.GREEN, GalleyType.DEKARES, 1),
        ("GT-4", Colour.GREEN, GalleyType.TRANSPORT, 4),
    ],
)
def test_galley_id_examples(text: str, colour: Colour, kind: GalleyType, number: int) -> None:
    assert parse_galley_id(text) == GalleyId(colour, kind, number)


def test_galley_ids_are_read_in_any_case_and_printed_canonically() -> None:
    assert format_galley_id(parse_galley_id("gCAT3-05")) == "Gcat3-5"
    assert format_galley_id(parse_galley_id("rtrm-2")) == "RTrm-2"


@pytest.mark.parametrize("text", ["", "G3", "B3-1", "G9-1", "G3-", "G3-x", "3-12", "Gcat-1"])
def test_bad_galley_ids_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_galley_id(text)


# --- positions ---


@st.composite
def positions(draw: st.DrawFn, map_: MapSpec = SINGLE_SHEET) -> Position:
    bow = draw(st.sampled_from(list(map_.hexes())))
    facing = draw(st.sampled_from(DIRECTIONS))
    double = draw(st.booleans())
    position = Position(bow, facing, double)
    if not all(map_.contains(h) for h in position.hexes):
        position = Position(bow, facing, False)
    return position


@given(positions())
def test_positions_round_trip(position: Position) -> None:
    assert parse_position(format_position(position)) == position


@given(st.data())
def test_positions_round_trip_on_joined_maps(data: st.DataObject) -> None:
    map_ = data.draw(st.sampled_from([MapSpec.long_edge(), MapSpec.short_edge()]))
    position = data.draw(positions(map_))
    text = format_position(position, map_)
    assert parse_position(text, map_) == position


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("2319-2320", "2319-2320"),
        ("4022-3", "4022-4023"),  # the scenario book's shortened stern
        ("4523-24", "4523-4524"),
        ("2007-6", "2007-2006"),
        ("2319/0", "2319/0"),
        (" 2319 - 2320 ", "2319-2320"),
    ],
)
def test_position_forms(text: str, canonical: str) -> None:
    assert format_position(parse_position(text)) == canonical


def test_positions_across_sheets() -> None:
    actium = MapSpec.short_edge()
    assert format_position(parse_position("N3719-3720", actium), actium) == "N3719-N3720"
    across = parse_position("S1019-N5919", actium)
    assert across.bow == Hex(60, 19) and across.stern == Hex(59, 19)
    assert format_position(across, actium) == "S1019-N5919"


@pytest.mark.parametrize("text", ["2319-2321", "2319", "2319/6", "2319-", "2319-2319", "x2319-2320"])
def test_bad_positions_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_position(text)


@given(positions())
def test_a_double_counter_fills_bow_and_stern(position: Position) -> None:
    if position.double:
        assert position.stern == neighbour(position.bow, position.facing + 3)
        assert position.hexes == (position.bow, position.stern)
    else:
        assert position.hexes == (position.bow,)
    assert len(position.surrounding()) == (8 if position.double else 6)


def test_single_counters_have_no_midship_flank() -> None:
    with pytest.raises(ValueError):
        parse_position("2319/0").around(Around.FLANK, Side.PORT)


# --- statuses ---


def test_capture_changes_hands_and_crew() -> None:
    """8.25-8.26: a Captured galley has Crew and Manpower 0 and is moved by its captor;
    retaken it is Recaptured, back with its owner, and still a Captured ship."""
    g = galley("R5-3", "3010-3011", crew=3)
    assert g.controller is Colour.RED and g.crew == 3 and g.manpower == 2
    taken = msgspec.structs.replace(g, capture=Capture.CAPTURED)
    assert taken.controller is Colour.GREEN and taken.crew == 0 and taken.manpower == 0
    back = msgspec.structs.replace(g, capture=Capture.RECAPTURED)
    assert back.controller is Colour.RED and back.crew == 0


def test_depletions_never_take_manpower_below_zero() -> None:
    g = galley("R5-3", "3010-3011", depletions=5)
    assert g.manpower == 0
    assert galley("R5-3", "3010-3011", depletions=1).manpower == 1


def test_a_galley_counter_size_must_match_its_position() -> None:
    with pytest.raises(RulesDataError):
        Galley(id=parse_galley_id("G5-1"), ratings=ratings("5"), position=parse_position("2319/0"))


def test_a_galley_with_every_status_encodes_and_decodes() -> None:
    partners = frozenset({parse_galley_id("R5-1"), parse_galley_id("Rcat3-2")})
    g = galley(
        "G5-1",
        "3010-3011",
        fatigue=2,
        half_speed=True,
        crippled=frozenset({Side.PORT}),
        rammed=True,
        fouled_with=partners,
        grappled_with=partners,
        collided_with=partners,
        capture=Capture.RECAPTURED,
        sails_up=True,
        mast_down=True,
        masts_lost=True,
        towers_jettisoned=True,
        on_fire=True,
        aground=Aground(End.STERN, 3),
        depletions=1,
        moved=MoveRecord(announced=4, spent=3, turns=1, backwatered=False, faced=False),
    )
    assert msgspec.json.decode(msgspec.json.encode(g), type=Galley) == g
