"""Each named special rule of the scenario book, shown acting (engine.war_galley.battles.shared and engine.specials_*)."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley import battles
from engine.war_galley.battles.scenario import SPECIAL_RULES
from engine.war_galley.battles.transports import tows
from engine.war_galley.map_and_galleys.galley import Capture, GalleyId, GalleyType, Removal, parse_galley_id
from engine.war_galley.map_and_galleys.hexes import Hex
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import RanAground, Stepped, move, surroundings
from engine.war_galley.movement.steps import Forward, Plan, Ram
from engine.war_galley.play.dispatch import pending
from engine.war_galley.turn import command, extra, fatigue, hooks, scenario_play, victory
from engine.war_galley.turn.activation import allowed
from engine.war_galley.turn.commanders import transfer_targets
from engine.war_galley.turn.decisions import Activate
from engine.war_galley.turn.state import GameState, Phase, Squadron
from engine.war_galley.ruleset import RULESET
from tests.engine.war_galley.scenario_support import SeededDice, deployed, drive, new

G = parse_galley_id


def formed(turn: int):  # type: ignore[no-untyped-def]
    """Phase B of `turn` is over: its squadrons stand."""
    return lambda s: s.turn == turn and s.phase not in (Phase.WIND, Phase.SQUADRONS, Phase.DEPLOYMENT)


def plan_of(galley_id: str, mp: int, *steps) -> Plan:  # type: ignore[no-untyped-def]
    return Plan(G(galley_id), SpeedSide.CRUISE, mp, tuple(steps))


def moved(state, galley_id: str, plan: Plan):  # type: ignore[no-untyped-def]
    g = state.galley(G(galley_id))
    return move(surroundings(state.board, state.galleys, g, state.wind, state.turn, state.charts), g, plan)[0]


def test_every_rule_name_has_a_hook() -> None:
    battles.load(SPECIAL_RULES)
    registered = {name for table in hooks.HOOKS.values() for name in table}
    assert set(SPECIAL_RULES) <= registered


# --- Lade -----------------------------------------------------------------------------------------


def test_treachery_rolls_at_the_first_activation_and_the_deserters_may_only_flee_north() -> None:
    state = deployed("lade", {"treachery": "on"})
    state = drive(state, lambda s: pending(s).kind == "activate" and pending(s).side == "ionians"
                  and ("Samos", None) in allowed(s, "ionians") and s.current is None)
    with pytest.raises(IllegalOrder, match="Treachery"):
        scenario_play.activate(state, Activate(side="ionians", squadron="Samos",
                                               plans=(plan_of("R3-6", 1, Forward()),)), ForcedDice())
    state, events = scenario_play.activate(state, Activate(side="ionians", squadron="Samos"), ForcedDice(2))
    assert extra.marked(state, "fleeing") == [G("R3-1"), G("R3-2")]
    assert state.current is not None and state.current.squadrons == ("Samos",)
    assert any(getattr(e, "natural", None) == 2 for e in events)
    south = Activate(side="ionians", squadron="Samos", plans=(plan_of("R3-1", 1, Forward()),))
    with pytest.raises(IllegalOrder, match="flees"):
        scenario_play.check(state, south)
    scenario_play.check(state, Activate(side="ionians", squadron="Samos", plans=(plan_of("R3-6", 1, Forward()),)))


def test_no_admiral_and_keep_squadrons() -> None:
    state = new("lade")
    ionians = state.side("ionians")
    assert ionians.initiative_drm == -1 and not ionians.double_activation and ionians.keep_squadrons
    state = deployed("lade")
    for gid, names in command.claims(state, "ionians").items():
        home = dict(state.home_groups)[gid]
        assert all(state.commander(n).group == home for n in names)


# --- Catana -------------------------------------------------------------------------------------


def test_catana_transports_have_no_manpower() -> None:
    state = new("catana")
    assert all(g.ratings.manpower == 0 for g in state.galleys if g.id.type is GalleyType.TRANSPORT)


def test_catana_pre_battle_move_then_a_transport_squadron() -> None:
    state = deployed("catana")
    assert state.first_turn_initiative == "syracusans"
    state = drive(state, formed(1))
    assert [s.key for s in state.squadrons] == ["Pre-battle move"]  # the Carthaginians do not move
    lead = state.galley(state.squadrons[0].galleys[0])
    assert hooks.maximum_barred(state, lead) is not None
    state = drive(state, formed(2))
    transports = next(s for s in state.squadrons if s.key == "Transports")
    assert transports.leaderless and not transports.individual
    assert {g.type for g in transports.galleys} == {GalleyType.TRANSPORT}


def test_catana_transports_keep_off_the_coast() -> None:
    state = deployed("catana")
    boat = next(g for g in state.galleys if g.id.type is GalleyType.TRANSPORT)
    near = replace(boat, position=Position(Hex(58, 14), 2, False))  # heading for the 60xx coast
    state = state.with_galley(near)
    plan = Plan(boat.id, SpeedSide.CRUISE, 1, (Forward(),))
    with pytest.raises(IllegalOrder, match="coast"):
        hooks.check_move(state, near, plan, moved(state, str(boat.id), plan))


# --- Salamis, Ecnomus ------------------------------------------------------------------------------


def test_salamis_transports_may_not_ram() -> None:
    state = deployed("salamis-cyprus")
    boat = next(g for g in state.galleys if g.id.type is GalleyType.TRANSPORT)
    enemy = next(g for g in state.galleys if g.id.colour is not boat.id.colour)
    plan = Plan(boat.id, SpeedSide.CRUISE, 1, (Ram(target=enemy.id),))
    with pytest.raises(IllegalOrder, match="may not ram"):
        hooks.check_move(state, boat, plan, boat)


def test_ecnomus_option_1_no_transports_and_squadron_iii_at_speed_2() -> None:
    state = deployed("ecnomus")
    assert not [g for g in state.galleys if g.id.type is GalleyType.TRANSPORT]
    state = drive(state, lambda s: s.turn == 1 and s.phase is Phase.COMMAND)
    third = state.galley(G("R5-20"))
    assert hooks.maximum_barred(state, third) is not None
    with pytest.raises(IllegalOrder, match="Speed of 2"):
        hooks.check_move(state, third, plan_of("R5-20", 3, Forward(), Forward(), Forward()), third)


def test_ecnomus_in_command_first_turn() -> None:
    state = deployed("ecnomus")
    state = drive(state, formed(1))
    triarii = state.squadron("Drusus")
    assert set(triarii.galleys) == {G("R5-29"), *(G(f"Rcat3-{n}") for n in range(31, 37))}


def test_ecnomus_towed_transports_tow_cut_and_drag() -> None:
    state = deployed("ecnomus", {"transports": "towed"})
    pairs = tows(state)
    assert len(pairs) == 9 and pairs[G("R5-20")] == G("RT-1")
    galley = state.galley(G("R5-20"))
    with pytest.raises(IllegalOrder, match="Tow"):
        hooks.check_move(state, galley, plan_of("R5-20", 4, *[Forward()] * 4), galley)  # Cruise 4: at most 2, or 3
    hooks.check_move(state, galley, plan_of("R5-20", 3, *[Forward()] * 3), galley)  # cutting the tow
    plan = plan_of("R5-20", 1, Forward())
    after = state.with_galley(moved(state, "R5-20", plan))
    events = [Stepped(rule="6.32", galley=G("R5-20"), step=Forward(), position=after.galley(G("R5-20")).position,
                      spent=1)]
    after, _ = hooks.after(after, ("Agricola",), state, events)
    ship = after.galley(G("R5-20")).position
    assert after.galley(G("RT-1")).position.bow == ship.stern.__class__(*_astern(ship))
    assert tows(after)[G("R5-20")] == G("RT-1")


def _astern(position: Position) -> tuple[int, int]:
    from engine.war_galley.map_and_galleys.position import Around
    h = position.around(Around.STERN)
    return h.col, h.row


def test_ecnomus_transports_are_one_of_four_command_squadrons() -> None:
    state = deployed("ecnomus", {"transports": "towed"})
    state = drive(state, lambda s: s.phase is Phase.COMMAND)
    romans = [s.key for s in state.squadrons if s.side == "romans" and not s.individual]
    assert "Transports" in romans and len(romans) > 4
    state = replace(state, activated=tuple(romans[:4]))
    state, events = hooks.after(state, (romans[3],), state, [])
    assert set(romans) <= set(state.activated) and events


def test_ecnomus_transport_vp_and_paired_exits() -> None:
    state = deployed("ecnomus", {"transports": "towed"})
    _, events = victory.damaged(state, G("RT-1"), "rammed")
    assert events[0].vp == 10
    before = state
    exits = ((G("RT-1"), "xx28"), (G("RT-2"), "xx28"), (G("G5-11"), "xx28"))
    state = extra.with_extra(state, exits=exits)
    state, events = hooks.after(state, ("Transports",), before, [])
    assert state.vp("carthaginians") == 20


def test_ecnomus_transports_must_exit_to_the_south() -> None:
    state = deployed("ecnomus", {"transports": "towed"})
    rows = [h.row for h in state.board.map.hexes()]
    cols = [h.col for h in state.board.map.hexes()]
    boat = state.galley(G("RT-1"))
    plan = Plan(boat.id, SpeedSide.CRUISE, 1, (Forward(),))
    south = replace(boat, position=Position(Hex(30, max(rows)), 3, False))  # heading off the xx28 edge
    here = state.with_galley(south)
    gone = moved(here, "RT-1", plan)
    assert gone.removed is Removal.EXITED
    hooks.check_move(here, south, plan, gone)
    for edge, position in (("10xx", Position(Hex(min(cols), 40), 5, False)), ("xx00", Position(Hex(30, min(rows)), 0, False))):
        away = replace(boat, position=position)
        here = state.with_galley(away)
        gone = moved(here, "RT-1", plan)
        assert gone.removed is Removal.EXITED
        with pytest.raises(IllegalOrder, match=f"must exit to the south.*{edge}"):
            hooks.check_move(here, away, plan, gone)


# --- Drepanum -------------------------------------------------------------------------------------


def test_drepanum_approach_port_and_no_maximum_until_in_the_water() -> None:
    state = deployed("drepanum-approach")
    leads = [g for g in state.galleys if g.position is not None and g.id.colour.value == "G"]
    assert len(leads) == 4 and all(not state.board.is_sea(g.position.bow) for g in leads)
    assert all(g.aground is None for g in leads)
    assert hooks.maximum_barred(state, leads[0]) is not None
    roman = next(g for g in state.galleys if g.position is not None and g.id.colour.value == "R")
    assert "on the map" in hooks.maximum_barred(state, roman)[1]


def _in_port(leads: int):  # type: ignore[no-untyped-def]
    """Drepanum Approach's Carthaginian set-up with `leads` lead galleys, the rest behind the first."""
    from engine.war_galley.play.legal import legal
    from engine.war_galley.battles.deployment import check_deploy
    state, _ = RULESET.advance(new("drepanum-approach"), SeededDice(random.Random(1)))
    example = legal(state)[0]
    galleys = [g for g, _ in example.galleys]
    bows = ["6016/5", "6018/5", "6020/5", "6022/5", "6024/5"][:leads]
    texts = [(g, bows[n] if n < leads else f"behind {galleys[0]}") for n, g in enumerate(galleys)]
    commanders = tuple((name, galleys[0]) for name, _ in example.commanders)
    decision = type(example)(side=example.side, commanders=commanders, galleys=tuple(texts))
    return state, decision, check_deploy


def test_drepanum_approach_in_port_as_1_to_4_squadrons() -> None:
    for leads in (1, 2, 4):
        state, decision, check = _in_port(leads)
        check(state, decision)
    for leads in (0, 5):
        state, decision, check = _in_port(leads)
        with pytest.raises(IllegalOrder, match="place 1 to 4 galleys"):
            check(state, decision)


def test_drepanum_first_turn_option() -> None:
    state = deployed("drepanum-battle")
    roman = next(g for g in state.galleys if g.position is not None and g.id.colour.value == "R")
    assert hooks.maximum_barred(replace(state, turn=1), roman) is None
    state = deployed("drepanum-approach", {"roman_first_turn": "on"})
    all_on = extra.with_extra(replace(state, turn=1), queues=())  # "until all are on the map" satisfied
    assert "first turn" in hooks.maximum_barred(all_on, roman)[1]
    assert hooks.maximum_barred(replace(all_on, turn=2), roman) is None


def test_drepanum_line_astern_is_one_squadron_until_broken() -> None:
    state = deployed("drepanum-battle")
    state = drive(state, formed(1))
    main = [s for s in state.squadrons if s.side == "romans" and s.line_astern]
    assert len(main) == 1 and len(main[0].galleys) == 20
    stray = state.galley(main[0].galleys[0])
    state = state.with_galley(replace(stray, position=Position(Hex(15, 10), 1, True)))
    from engine.war_galley.battles.drepanum import broken_now
    assert "line-astern-broken:romans" in broken_now(state).extra.flags


def test_drepanum_run_aground_vp() -> None:
    state = deployed("drepanum-battle")
    roman = next(g for g in state.galleys if g.id.colour.value == "R" and g.position is not None)
    before = state
    state, _ = victory.damaged(state, roman.id, "ran aground")
    assert state.vp("carthaginians") > 0
    event = RanAground(rule="6.31", galley=roman.id, hex=state.board.map.parse("6020"))
    state, events = hooks.after(state, ("C. Pulcher",), before, [event])
    assert state.vp("romans") == 3 and state.vp("carthaginians") == 0
    assert state.galley(roman.id).position is None and state.galley(roman.id).removed is Removal.EXITED


# --- The Aegatian Isles ------------------------------------------------------------------------------


def test_aegatian_exit_vp_for_uncrippled_galleys() -> None:
    state = deployed("aegatian-isles")
    galley = next(g for g in state.galleys if g.id.colour.value == "G" and g.position is not None)
    start = replace(galley, position=Position(Hex(30, 27), 3, True))
    before = state.with_galley(start)
    gone = before.with_galley(replace(start, position=None, removed=Removal.EXITED))
    events = [Stepped(rule="6.32", galley=galley.id, step=Forward(), position=Position(Hex(30, 29), 3, True), spent=2)]
    gone = extra.record_exits(gone, before, events)
    gone, told = hooks.after(gone, ("Hanno",), before, events)
    assert gone.vp("carthaginians") == 3 and told


# --- Chios, Myonessus -----------------------------------------------------------------------------------


def test_chios_separate_fleets_lembi_and_tremiolas() -> None:
    state = deployed("chios")
    claims = command.claims(state, "allies")
    rhodian = {g for f, g in extra.fleet_marks(state) if f == "rhodians"}
    for gid, names in claims.items():
        for name in names:
            assert (gid in rhodian) == (name in ("Theopholiscus", "Philostratus"))
    for gid, names in command.claims(state, "macedonians").items():
        if any(n.startswith("Lembi") for n in names):
            assert gid.type is GalleyType.LEMBI
    lembi = state.commander("Lembi I")
    assert all(g.type is GalleyType.LEMBI for g in transfer_targets(state, lembi))
    assert hooks.commander_barred(state, "Dionysidorus", G("GTrm-1")) is not None


# --- Side ------------------------------------------------------------------------------------------


def test_side_approach_phase_and_pestilence() -> None:
    state = deployed("side")
    assert state.first_turn_initiative == "rhodians"
    state = drive(state, formed(1))
    assert {s.side for s in state.squadrons} == {"rhodians"}
    galley = next(state.galleys_of("rhodians"))
    _, events = fatigue.check(state, galley.id, ForcedDice(1))
    assert ("pestilence (Side)", 1) in events[0].modifiers


# --- Tauris -------------------------------------------------------------------------------------------


def test_tauris_sails_up_cruise_first_turn_and_restricted_commanders() -> None:
    state = deployed("tauris")
    caesarians = list(state.galleys_of("caesarians"))
    assert all(g.sails_up for g in caesarians)
    assert hooks.maximum_barred(replace(state, turn=1), caesarians[0]) is not None
    octavius = state.commander("Marcus Octavius")
    assert octavius.galley.type is GalleyType.QUADRIREME
    # A set-up rule ("the lead ship of his column"): in play he may transfer to any galley (5.51).
    assert hooks.commander_barred(replace(state, phase=Phase.DEPLOYMENT), "Marcus Octavius", G("RL2-1"))
    assert hooks.commander_barred(state, "Marcus Octavius", G("RL2-1")) is None
    for gid, names in command.claims(state, "caesarians").items():
        if "Agricola" in names:
            assert gid.type is GalleyType.REINFORCED_LEMBI


def test_tauris_wet_fire_is_a_device() -> None:
    state = new("tauris")
    assert state.devices.flame_ignites is not None and state.devices.flame_ignites.low == 5
    assert state.devices.firefight_drm == -1


# --- Actium --------------------------------------------------------------------------------------------


def test_actium_anchored_reserve_raises_anchor_with_an_activation() -> None:
    state = deployed("actium")
    from engine.war_galley.battles.actium import anchored as at_anchor
    params = hooks.named(state, "anchored")[0]
    anchored = at_anchor(state, params)
    assert len(anchored) == 15
    ship = state.galley(anchored[0])
    with pytest.raises(IllegalOrder, match="anchor"):
        hooks.check_move(state, ship, Plan(ship.id, SpeedSide.CRUISE, 1, (Forward(),)), ship)
    state = replace(state, squadrons=(Squadron("Cleopatra", "antonians", tuple(anchored), "Cleopatra"),))
    after, events = hooks.after(state, ("Cleopatra",), state, [])
    assert at_anchor(after, params) == [] and events
    hooks.check_move(after, ship, Plan(ship.id, SpeedSide.CRUISE, 1, (Forward(),)), ship)


def test_actium_judges_a_plan_alone_and_refuses_an_anchored_one_in_the_activation_check() -> None:
    state = deployed("actium")
    assert not hooks.watches_moves(state)  # the anchors judge the plan alone: no galley is moved to check it
    assert hooks.watches_moves(new("ecnomus"))  # the towed transports: where the plan leaves the tow
    ship = state.galley(at_anchor_ids(state)[0])
    decision = Activate(side="antonians", squadron="Cleopatra", plans=(Plan(ship.id, SpeedSide.CRUISE, 1, (Forward(),)),))
    with pytest.raises(IllegalOrder, match="lies at anchor"):
        scenario_play.check(state, decision)
    still = replace(decision, plans=(Plan(ship.id, SpeedSide.CRUISE, 0, ()),))
    assert scenario_play.check(state, still) is state  # a plan that moves nothing (no MP, no step) the anchors allow


def at_anchor_ids(state: GameState) -> list[GalleyId]:
    from engine.war_galley.battles.actium import anchored
    return anchored(state, hooks.named(state, "anchored")[0])


def test_actium_leaders_survive() -> None:
    state = deployed("actium")
    bonus, why = hooks.final_bonus(state)
    assert bonus == {"antonians": 20} and why
    antony = state.commander("Antony")
    gone = state.with_commander(replace(antony, galley=None))
    assert hooks.final_bonus(gone)[0] == {}


def test_actium_rising_wind_and_sails() -> None:
    state = deployed("actium")
    assert state.wind is None and state.wind_rule.mode == "rising"
    assert all(g.equipment.sails == (g.id.colour.value == "R") for g in state.galleys)


def test_first_turn_initiative_given_by_the_scenario() -> None:
    assert new("lade").first_turn_initiative == "ionians"
    assert new("aegatian-isles").first_turn_initiative == "carthaginians"


def test_treasure_capture_reaches_the_victory_ledger() -> None:
    from engine.war_galley.battles import choices
    from engine.war_galley.battles.actium import example_values
    from tests.engine.war_galley.scenario_support import apply, opening
    state = deployed("actium")  # the Treasury committed on the first Reserve galley
    value = example_values(state)[0]
    taken = state.with_galley(replace(state.galley(G(value)), capture=Capture.CAPTURED))
    assert choices.wanted(taken).kind == "open"
    done = apply(taken, opening("treasure", value))
    assert any(a.kind == "treasure" and a.vp == 15 and a.side == "octavians" for a in done.awards)


def test_chios_5_53_a_lost_commander_never_joins_a_tremiola() -> None:
    """5.53 relocation obeys "No Tremiolas may ever be a Command Ship" as transfers do."""
    from msgspec.structs import replace

    from engine.dice import ForcedDice
    from engine.war_galley.turn.commanders import galley_lost
    from engine.war_galley.turn.state import Squadron

    state = deployed("chios")
    ship = state.commander("Dionysidorus").galley
    assert ship is not None
    from engine.war_galley.map_and_galleys.hexes import distance

    here = state.galley(ship).position.bow  # type: ignore[union-attr]
    far = max((g for g in state.galleys_of("allies") if g.id.type is not GalleyType.TREMIOLA
               and g.id != ship and g.position is not None and g.id.colour is ship.colour),
              key=lambda g: distance(here, g.position.bow)).id  # type: ignore[union-attr]
    squadron = Squadron("Dionysidorus", "allies", (ship, G("GTrm-1"), far), "Dionysidorus")
    state = replace(state, squadrons=(squadron,))
    state, _ = galley_lost(state, state.galley(ship), ForcedDice())
    assert state.commander("Dionysidorus").galley == far  # GTrm-1 is nearer, but barred


@pytest.mark.parametrize(("key", "option", "side"), [("ecnomus", "roman_sails", "romans"), ("chios", "allied_sails", "allies")])
def test_a_side_the_book_lets_start_with_sails_raised_may(key: str, option: str, side: str) -> None:
    """Ecnomus "may take advantage of this to Raise Sails at the start"; Chios "may have Sails Raised"."""
    raised = deployed(key, {option: "on"})
    assert all(g.sails_up for g in raised.galleys_of(side) if g.equipment.sails)
    assert not any(g.sails_up for g in deployed(key).galleys_of(side))
