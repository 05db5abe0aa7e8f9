"""Standing reaction orders (6.5, 6.7, 8.42): notation, decisions, and the Defensive Reaction Ram."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.events import DieRolled
from engine.war_galley.galley_combat.avoidance import AvoidDirection
from engine.war_galley.galley_combat.combat_record import CombatRecord
from engine.war_galley.galley_combat.combat_steps import MPExpended, PlanEnd, PlanHalted
from engine.war_galley.galley_combat.ramming import RamResolved, RamResult
from engine.war_galley.galley_combat.reactions import (
    AvoidBy,
    AvoidWhen,
    FireReaction,
    FireTrigger,
    RamReaction,
    Reaction,
    ReactionOrders,
    avoid_decision,
    fires_in_reaction,
    format_reactions,
    orders_for,
    parse_reaction,
    parse_reactions,
    rams_in_reaction,
    reaction_orders,
)
from engine.war_galley.map_and_galleys.board import OPEN_SEA
from engine.war_galley.map_and_galleys.galley import Capture, Colour, GalleyId, GalleyType
from tests.engine.war_galley.combat_support import CHARTS, fleet, gid, of, play, rolls, ship

# --- notation ---

EXAMPLE = """\
# Red's standing orders
default: avoid=ram-position by=away ram=eligible fire=attacked
R3-12, R3-14: avoid=never
R5-86: avoid=adjacent by=back
"""


def test_the_example_reads_as_meant() -> None:
    orders = parse_reactions(EXAMPLE)
    assert orders.default == Reaction(AvoidWhen.RAM_POSITION, AvoidBy.AWAY, RamReaction.ELIGIBLE,
                                      FireReaction.ATTACKED)
    assert orders.for_galley(gid("R3-12")) == Reaction(AvoidWhen.NEVER, AvoidBy.AWAY, RamReaction.ELIGIBLE,
                                                       FireReaction.ATTACKED)
    assert orders.for_galley(gid("R5-86")).by is AvoidBy.BACK
    assert orders.for_galley(gid("R5-1")) == orders.default


def test_format_and_parse_round_trip() -> None:
    orders = parse_reactions(EXAMPLE)
    text = format_reactions(orders)
    assert parse_reactions(text) == orders
    assert text.splitlines()[1] == "R3-12: avoid=never"


def test_nothing_said_means_no_reaction() -> None:
    standing = ReactionOrders().for_galley(gid("G3-1"))
    assert standing == Reaction(AvoidWhen.NEVER, AvoidBy.AWAY, RamReaction.NEVER, FireReaction.NEVER)
    assert parse_reactions("") == ReactionOrders()


@pytest.mark.parametrize("text", ["default: avoid=sometimes", "default: swim=yes", "default: avoid=never avoid=adjacent",
                                  "default: avoid=never\ndefault: ram=never", "R3-1: avoid=never\nR3-1: ram=never",
                                  "R3-1 avoid=never", "X9-1: avoid=never"])
def test_bad_orders_say_what_is_wrong(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_reactions(text)
    assert "line" in str(caught.value)


def _enum(kind):
    return st.none() | st.sampled_from(list(kind))


reactions = st.builds(Reaction, _enum(AvoidWhen), _enum(AvoidBy), _enum(RamReaction), _enum(FireReaction))
ids = st.builds(GalleyId, st.sampled_from(list(Colour)), st.sampled_from(list(GalleyType)), st.integers(1, 99))


@given(reactions, st.dictionaries(ids, reactions, max_size=5))
def test_every_order_round_trips(default: Reaction, overrides: dict) -> None:
    orders = reaction_orders(default, overrides)
    assert parse_reactions(format_reactions(orders)) == orders


# --- deciding ---

TARGET = "3015-3016"  # facing up


def decide(reaction_text: str, mover_where: str, record: CombatRecord = CombatRecord(), **mover: object):
    galley = ship("R5-1", TARGET)
    enemy = ship("G5-1", mover_where, **mover)
    field = fleet(galley, enemy)
    return avoid_decision(parse_reaction(reaction_text), OPEN_SEA, field, galley, enemy, CHARTS, record)


def test_never_and_adjacent() -> None:
    assert decide("avoid=never", "3115-3216") is None
    assert decide("avoid=adjacent", "3115-3114") is AvoidDirection.FORWARD  # alongside, not pointing
    assert decide("avoid=adjacent", "3315-3416") is None  # not adjacent


def test_ram_capable_and_ram_position() -> None:
    assert decide("avoid=ram-capable", "3115-3114") is not None
    assert decide("avoid=ram-capable", "3115-3114", fatigue=2) is None  # a Fatigued enemy cannot ram
    assert decide("avoid=ram-capable", "3115-3114", attack=0, cruise_attack=0) is None
    assert decide("avoid=ram-capable", "3115-3114", record=CombatRecord(ram_attempts=frozenset({gid("G5-1")}))) is None
    assert decide("avoid=ram-position", "3115-3114") is None  # not pointing at it
    assert decide("avoid=ram-position", "3115-3216") is not None  # bow at it from the flank


def test_which_way() -> None:
    assert decide("avoid=adjacent by=back", "3115-3114") is AvoidDirection.BACK
    # Away from a galley at its stern/flank pointing at the stern: forward gets further.
    assert decide("avoid=adjacent by=away", "3116-3217") is AvoidDirection.FORWARD
    # From its bow/flank: back gets further.
    assert decide("avoid=adjacent by=away", "3114-3214") is AvoidDirection.BACK


def test_a_captured_galley_obeys_its_captor() -> None:
    red = parse_reactions("default: avoid=never")
    green = parse_reactions("default: avoid=adjacent")
    captured = ship("R5-1", TARGET, capture=Capture.CAPTURED)
    assert orders_for({Colour.RED: red, Colour.GREEN: green}, captured).avoid is AvoidWhen.ADJACENT


def test_fire_and_ram_settings() -> None:
    assert fires_in_reaction(parse_reaction("fire=attacked"), FireTrigger.ATTACKED)
    assert not fires_in_reaction(parse_reaction("fire=attacked"), FireTrigger.FIRED_UPON)
    assert fires_in_reaction(parse_reaction("fire=always"), FireTrigger.FIRED_UPON)
    assert not fires_in_reaction(Reaction(), FireTrigger.ATTACKED)
    assert rams_in_reaction(parse_reaction("ram=eligible")) and not rams_in_reaction(Reaction())


# --- 6.7: the Defensive Reaction Ram ---

CROSSING = "2913-2813"  # facing 2: one F puts its bow on 3014, R5-1's Bow hex, R5-1's bow on its flank


def crossing(**mover: object):
    return fleet(ship("G5-1", CROSSING, **mover), ship("R5-1", TARGET))


RAMS = "default: ram=eligible"


def test_a_successful_reaction_ram_stops_the_mover() -> None:
    galleys, events, outcome, dice = play("G5-1 cruise 3: F F F", crossing(), [2, 6, 6], red=RAMS, drr=True)
    assert outcome.end is PlanEnd.WAS_RAMMED and galleys[gid("G5-1")].rammed
    ram = of(events, RamResolved)[0]
    assert ram.reaction and ram.rammer == gid("R5-1") and ram.result is RamResult.FOULED
    assert gid("R5-1") in outcome.record.ram_attempts and dice.unused == []
    assert galleys[gid("G5-1")].moved.spent == 1  # type: ignore[union-attr]


def test_a_failed_reaction_ram_collides_the_reactor_and_costs_the_mover_1_mp() -> None:
    galleys, events, outcome, dice = play("G5-1 cruise 3: F F F", crossing(), [2, 1, 1], red=RAMS, drr=True)
    reactor = galleys[gid("R5-1")]
    assert reactor.half_speed and reactor.collided_with == {gid("G5-1")}
    assert not galleys[gid("G5-1")].half_speed
    assert of(events, MPExpended)[0].mp == 1
    # 1 + 1 MP spent: the second F takes the last MP and the third is no longer possible.
    assert outcome.end is PlanEnd.HALTED and of(events, PlanHalted)[0].step == 3 and outcome.spent == 3
    assert gid("G5-1") in outcome.record.drew_reaction_ram and dice.unused == []


def test_a_failed_crew_check_is_no_attempt() -> None:
    galleys, events, outcome, dice = play("G5-1 cruise 3: F F F", crossing(), [4], red=RAMS, drr=True)
    assert outcome.end is PlanEnd.COMPLETED and rolls(events, "Defensive Reaction Ram")[0].natural == 4
    assert gid("R5-1") not in outcome.record.ram_attempts and dice.unused == []


def test_only_with_the_optional_rule_and_the_orders() -> None:
    _, events, outcome, dice = play("G5-1 cruise 3: F F F", crossing(), [], red=RAMS, drr=False)
    assert outcome.end is PlanEnd.COMPLETED and not rolls(events, "Defensive Reaction Ram")
    _, events, outcome, dice = play("G5-1 cruise 3: F F F", crossing(), [], red="default: ram=never", drr=True)
    assert not rolls(events, "Defensive Reaction Ram")


def test_not_head_on_and_not_when_barred() -> None:
    head_on = fleet(ship("G5-1", "3013-3012"), ship("R5-1", TARGET))  # coming down at R5-1's bow
    _, events, *_ = play("G5-1 cruise 1: F", head_on, [], red=RAMS, drr=True)
    assert not rolls(events, "Defensive Reaction Ram")
    field = fleet(ship("G5-1", CROSSING), ship("R5-1", TARGET, fatigue=2))
    _, events, *_ = play("G5-1 cruise 3: F F F", field, [], red=RAMS, drr=True)
    assert not rolls(events, "Defensive Reaction Ram")


def test_reaction_fire_when_attacked() -> None:
    fired: list[str] = []

    def hook(field, firer, target, what, dice):  # a hook that fires returns its events (its dice at least)
        fired.append(f"{firer}>{target}:{what}")
        return field, [DieRolled(rule="8.45", table="Missile Table", natural=1, outcome="-")]

    field = fleet(ship("G3-1", "3114-3113"), ship("R5-1", TARGET))
    _, _, outcome, _ = play("G3-1 cruise 3: F K:R5-1 F F", field, [1, 1], red="default: fire=attacked",
                            reaction_fire=hook)
    assert fired == ["R5-1>G3-1:rake"] and gid("R5-1") in outcome.record.reaction_fired
    fired.clear()
    play("G3-1 cruise 3: F K:R5-1 F F", field, [1, 1], red="default: fire=fired-upon", reaction_fire=hook)
    assert fired == []


def test_6_7_ram_eligible_orders_are_refused_where_the_game_does_not_use_the_optional_rule() -> None:
    """6.7 is "(Optional)": without it a ram=eligible order is refused (rule 6.7), not kept and silently
    ignored, and the legal listing offers no such order; with it both accept it."""
    from engine.dice import ForcedDice
    from engine.errors import IllegalOrder
    from engine.war_galley.play import dispatch
    from engine.war_galley.play.legal import legal
    from engine.war_galley.turn.decisions import Reactions
    from engine.war_galley.turn.decisions import Initiative
    from tests.engine.war_galley.game_support import decide, run, skirmish

    bold = Reactions(side="rome", orders=parse_reactions("default: avoid=adjacent\nR5-52: ram=eligible"))
    for drr in ("off", "on"):
        state, _, _ = run(skirmish(options={"defensive_reaction_ram": drr}), 4, 2)
        state, _ = decide(state, Initiative(side="rome", first="rome"))  # phase D: Rome chooses speeds
        listed = [d for d in legal(state) if isinstance(d, Reactions)]
        offers_ram = any("ram=eligible" in format_reactions(d.orders) for d in listed)
        assert listed and all(dispatch.apply(state, d, ForcedDice()) for d in listed)
        if drr == "off":
            with pytest.raises(IllegalOrder, match="R5-52: ram=eligible") as refused:
                dispatch.apply(state, bold, ForcedDice())
            assert refused.value.rule == "6.7" and not offers_ram
        else:
            after, _ = dispatch.apply(state, bold, ForcedDice())
            assert dict(after.reactions)["rome"] == bold.orders and offers_ram


def test_8_44_the_missiles_setting_round_trips_and_defaults_to_regular() -> None:
    """Reaction Fire names its missiles like any fire (8.44): `missiles=flame` or `regular` (unsaid: regular)."""
    from engine.war_galley.galley_combat.reactions import MissileChoice, fires_flame_in_reaction

    orders = parse_reactions("default: fire=always missiles=flame\nR3-12: missiles=regular\n")
    assert parse_reactions(format_reactions(orders)) == orders
    assert orders.for_galley(gid("R3-1")).missiles is MissileChoice.FLAME
    assert fires_flame_in_reaction(orders.for_galley(gid("R3-1")))
    assert not fires_flame_in_reaction(orders.for_galley(gid("R3-12")))
    assert not fires_flame_in_reaction(ReactionOrders().for_galley(gid("R3-1")))
