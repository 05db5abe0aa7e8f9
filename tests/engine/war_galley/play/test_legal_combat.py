"""The legal-action generator offers what rule 8 allows a Flame-capable galley (8.44, 8.51-8.52)."""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.war_galley.galley_combat.reactions import MissileChoice
from engine.war_galley.manpower_combat.devices import Devices
from engine.war_galley.manpower_combat.missiles import MissileHit
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.legal import legal
from engine.war_galley.play.legal_combat import reaction_examples
from engine.war_galley.turn.decisions import Activate
from engine.war_galley.turn.state import GameState
from tests.engine.war_galley.game_support import at, g
from tests.engine.war_galley.test_integration_combat import battle, of


def alongside(flame: bool) -> GameState:
    state = at(at(battle(), "R5-52", "3115-3116"), "G5-13", "3015-3016")
    return replace(state, devices=Devices(flame_galleys=frozenset({g("R5-52")}) if flame else frozenset()))


def shots(state: GameState) -> set[tuple[str, bool]]:
    return {(str(shot.target), shot.flame) for d in legal(state) if isinstance(d, Activate)
            for m in d.fire if m.order.galley == g("R5-52") for shot in m.order.shots}


def test_8_51_a_flame_capable_galley_is_offered_flame_missiles_at_an_adjacent_enemy() -> None:
    state = alongside(flame=True)
    assert ("G5-13", True) in shots(state)
    flaming = next(d for d in legal(state) if isinstance(d, Activate)
                   and any(s.flame for m in d.fire for s in m.order.shots))
    _, events = play.apply(state, flaming, ForcedDice(*[6] * 12))  # every listed decision passes apply
    assert any(h.flame for h in of(events, MissileHit))


def test_a_galley_without_flame_capability_is_never_offered_flame() -> None:
    assert shots(alongside(flame=False)) and not any(flame for _, flame in shots(alongside(flame=False)))


def test_8_44_bold_reaction_orders_use_flame_where_the_side_has_flame_galleys() -> None:
    bold = reaction_examples(alongside(flame=True), "rome")[0].orders.default
    assert bold.missiles is MissileChoice.FLAME
    assert reaction_examples(alongside(flame=True), "carthage")[0].orders.default.missiles is None
