"""Squadrons (5.21-5.24, 5.3): command range, Line Astern, shared galleys, Individual Squadrons."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.war_galley.battles.scenario_files import BATTLES_DIR
from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.play import dispatch as play
from engine.war_galley.turn import command
from engine.war_galley.turn.decisions import Squadrons
from engine.war_galley.turn.state import Phase
from tests.engine.war_galley.game_support import at, commander, decide, g, run, skirmish


def members(state, name: str) -> set[str]:
    return {str(x) for x in command.in_range(state, state.commander(name))}


def test_range_counts_from_any_hex_of_the_command_ship_not_counting_its_own() -> None:
    state = skirmish()  # Metellus, range 1, on R5-52 at 2420-2421
    near = at(state, "R5-53", "2521-2522")  # bow next to Metellus' stern hex
    assert members(near, "Metellus") == {"R5-52", "R5-53"}
    assert command.command_distance(near, near.galley(g("R5-52")), near.galley(g("R5-53")), 5) == 1
    far = at(state, "R5-53", "2622-2623")
    assert members(far, "Metellus") == {"R5-52"}
    reduced = commander(near, "Metellus", reduced=True)  # RE side: range 0 (5.52)
    assert members(reduced, "Metellus") == {"R5-52"}


def test_range_is_traced_through_friends_but_never_through_enemies() -> None:
    state = skirmish()  # Catulus, range 2, on R5-50 at 2020-2021; R5-51 at 2220-2221
    assert "R5-51" in members(state, "Catulus")
    blocked = at(at(state, "G5-14", "2119-2120"), "G5-12", "2121-2122")  # every hex between
    assert "R5-51" not in members(blocked, "Catulus")
    friendly = at(at(state, "R5-53", "2119-2120"), "G5-12", "2121-2122")
    assert "R5-51" in members(friendly, "Catulus")


def column(state, *names: str):
    """The named galleys in one column facing row 00, bows at 2020, 2022, 2024, ..."""
    for n, name in enumerate(names):
        state = at(state, name, f"20{20 + 2 * n:02d}-20{21 + 2 * n:02d}")
    return state


def test_line_astern_bow_to_stern_with_the_command_ship_first_or_second() -> None:
    state = commander(column(skirmish(), "R5-50", "R5-51", "R5-52", "R5-53"), "Metellus", galley=None)
    line = ("R5-50", "R5-51", "R5-52", "R5-53")
    assert tuple(map(str, command.line_astern(state, state.commander("Catulus")))) == line
    second = commander(state, "Catulus", galley=g("R5-51"))
    assert tuple(map(str, command.line_astern(second, second.commander("Catulus")))) == line
    third = commander(state, "Catulus", galley=g("R5-52"))
    assert command.line_astern(third, third.commander("Catulus")) == ()


def test_line_astern_echelon_bow_in_the_stern_flank_hex() -> None:
    state = commander(skirmish(), "Metellus", galley=None)
    state = at(at(state, "R5-51", "1921-1922"), "R5-52", "1823-1824")  # each bow in the port stern/flank hex
    assert tuple(map(str, command.line_astern(state, state.commander("Catulus")))) == ("R5-50", "R5-51", "R5-52")


def test_5_22_a_bow_at_the_stern_hex_from_the_flank_is_no_line_astern() -> None:
    """ "each ship's bow is directly facing another galley's stern": a ram position at the flank is not."""
    state = commander(skirmish(), "Metellus", galley=None)  # R5-50 at 2020-2021, stern hex 2021
    for across in ("2120-2220", "1920-1820"):  # bows in the midship flank hexes, pointing into 2021
        flank = at(state, "R5-51", across)
        assert g("R5-51") not in command.line_astern(flank, flank.commander("Catulus")), across


def test_5_22_the_line_of_a_command_ship_second_runs_through_it_where_the_head_has_two_followers() -> None:
    """ "The entire line is considered one Squadron as long as the Command Ship is either first or second":
    R5-51 (2220-2221) leads R5-53 directly astern (form 1) and Catulus' R5-50 in echelon (bow in its
    port stern/flank hex 2121); Catulus' line is R5-51, R5-50, and his squadron holds his own ship."""
    state = at(at(skirmish(), "R5-53", "2222-2223"), "R5-50", "2121-2122")
    state = at(state, "R5-52", "4020-4021")  # Metellus far off
    assert tuple(map(str, command.line_astern(state, state.commander("Catulus")))) == ("R5-51", "R5-50")
    squadron = next(s for s in command.form(state, Squadrons(side="rome", line_astern=("Catulus",)))
                    if s.key == "Catulus")
    assert squadron.line_astern and set(map(str, squadron.galleys)) == {"R5-51", "R5-50"}


def test_a_line_astern_squadron_holds_only_the_line() -> None:
    state = commander(column(skirmish(), "R5-50", "R5-51", "R5-52"), "Metellus", galley=None)
    state = at(state, "R5-53", "1921-1922")  # in Catulus' range but off the line's end: bow into nothing
    by_range = command.form(state, Squadrons(side="rome"))
    by_line = command.form(state, Squadrons(side="rome", line_astern=("Catulus",)))
    assert {s.key: len(s.galleys) for s in by_range}["Catulus"] == 3  # R5-50, R5-51 (range 2), R5-53
    line = next(s for s in by_line if s.key == "Catulus")
    assert line.line_astern and set(map(str, line.galleys)) == {"R5-50", "R5-51", "R5-52"}
    assert "R5-53" in [s.key for s in by_line if s.individual]


def test_a_galley_in_range_of_two_commanders_is_assigned_by_its_player() -> None:
    state = at(skirmish(), "R5-52", "2320-2321")  # Metellus now 1 hex from R5-51, Catulus 2
    assert command.claims(state, "rome")[g("R5-51")] == ["Catulus", "Metellus"]
    with pytest.raises(IllegalOrder, match="5.24"):
        command.form(state, Squadrons(side="rome"))
    with pytest.raises(IllegalOrder, match="5.24"):
        command.form(state, Squadrons(side="rome", assign=((g("R5-53"), "Catulus"),)))
    squadrons = command.form(state, Squadrons(side="rome", assign=((g("R5-51"), "Metellus"),)))
    assert {s.key: tuple(map(str, s.galleys)) for s in squadrons} == {
        "Catulus": ("R5-50",), "Metellus": ("R5-51", "R5-52"), "R5-53": ("R5-53",),
    }
    # In phase B the game waits for Rome's choice; Carthage (the lower-rated Admiral) formed first (5.24).
    state, _, _ = run(state)
    assert play.pending(state).side == "rome" and play.pending(state).kind == "squadrons"
    assert "carthage" in state.squadrons_done
    state, _ = decide(state, Squadrons(side="rome", assign=((g("R5-51"), "Catulus"),)), 6, 1)
    assert state.phase is Phase.INITIATIVE and state.squadron("Catulus").galleys == (g("R5-50"), g("R5-51"))


def test_galleys_out_of_every_range_are_individual_squadrons() -> None:
    squadrons = command.form(skirmish(), Squadrons(side="carthage"))
    assert [s.key for s in squadrons if s.individual] == ["G5-14"]
    assert all(s.commander is None for s in squadrons if s.individual)


def test_keep_squadrons_lade_galleys_join_only_their_own_squadron() -> None:
    state = new_game((BATTLES_DIR / "lade.toml").read_bytes(), default_rules_data(), {})
    state = commander(commander(state, "Chios", galley=g("R3-25")), "Samos", galley=g("R3-1"))
    state = at(state, "R3-2", "3715-3716")  # a Samian galley right beside the Chian command ship
    assert state.side("ionians").keep_squadrons
    assert command.claims(state, "ionians")[g("R3-2")] == []  # not Chios': an Individual Squadron
    anyone = replace(state, sides=(state.sides[0], replace(state.sides[1], keep_squadrons=False)))
    assert command.claims(anyone, "ionians")[g("R3-2")] == ["Chios"]
