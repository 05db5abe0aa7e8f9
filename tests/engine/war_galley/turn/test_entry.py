"""Off-map entry (engine.war_galley.turn.entry): in Line Astern, hex by hex, using MP, through a free entry hex."""

from __future__ import annotations

import pytest

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.galley import parse_galley_id
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.steps import Forward, Plan
from engine.war_galley.play.dispatch import pending
from engine.war_galley.turn import entry, scenario_play
from engine.war_galley.turn.activation import allowed
from engine.war_galley.turn.decisions import Activate
from engine.war_galley.turn.state import Phase
from tests.engine.war_galley.scenario_support import deployed, drive

G = parse_galley_id


def forward(galley: str, mp: int) -> Plan:
    return Plan(G(galley), SpeedSide.CRUISE, mp, (Forward(),) * mp)


def chios_activation():  # type: ignore[no-untyped-def]
    state = deployed("lade")
    return drive(state, lambda s: pending(s).kind == "activate" and pending(s).side == "ionians"
                 and ("Chios", None) in allowed(s, "ionians") and s.current is None)


def test_lade_chios_tail_waits_in_line_astern() -> None:
    state = deployed("lade")
    queue = next(q for q in state.extra.queues if q.group == "Chios Squadron")
    assert queue.galleys == (G("R3-32"), G("R3-33"), G("R3-34"), G("R3-35")) and queue.ahead == G("R3-31")
    assert state.board.map.format(queue.starts[0].bow) == "3829"  # behind 3828, off the map
    assert all(state.galley(g).position is None for g in queue.galleys)


def test_chios_tail_enters_as_the_column_moves_forward() -> None:
    from msgspec.structs import replace

    from engine.war_galley.map_and_galleys.hexes import Hex
    from engine.war_galley.map_and_galleys.position import Position
    state = chios_activation()
    squadron = state.squadron("Chios")
    assert G("R3-32") in squadron.galleys  # the waiting galleys move with their squadron
    rear = state.galley(G("R3-31"))  # the rear galley has rowed away: 3828 is free
    state = state.with_galley(replace(rear, position=Position(Hex(12, 12), 0, True)))
    plans = (forward("R3-32", 2), forward("R3-33", 0))
    decision = Activate(side="ionians", squadron="Chios", plans=plans)
    after, _ = scenario_play.activate(state, decision, ForcedDice(*[1] * 20))
    entered = after.galley(G("R3-32"))
    assert after.board.map.format(entered.position.bow) == "3827"  # 2 MP: onto 3828, then 3827
    assert after.board.map.format(entered.position.stern) == "3828"
    assert after.galley(G("R3-33")).position is None  # its plan left it off the map: it waits on
    queue = next(q for q in after.extra.queues if q.group == "Chios Squadron")
    assert queue.galleys == (G("R3-33"), G("R3-34"), G("R3-35")) and queue.ahead == G("R3-32")


def test_entry_refused_out_of_order_or_into_an_occupied_hex() -> None:
    state = chios_activation()
    with pytest.raises(IllegalOrder, match="Line Astern after"):
        scenario_play.check(state, Activate(side="ionians", squadron="Chios", plans=(forward("R3-33", 1),)))
    with pytest.raises(IllegalOrder, match="6.6|occupied"):  # R3-31 still fills 3828
        scenario_play.activate(state, Activate(side="ionians", squadron="Chios", plans=(forward("R3-32", 1),)),
                               ForcedDice())


def test_drepanum_squadrons_wait_for_turn_3_and_for_each_other() -> None:
    state = deployed("drepanum-approach")
    first = next(q for q in state.extra.queues if q.group == "Squadron #1")
    second = next(q for q in state.extra.queues if q.group == "Squadron #2")
    assert entry.why_not_now(state, first) == "Squadron #1 may not enter before turn 3"
    from msgspec.structs import replace
    later = replace(state, turn=3)
    assert entry.why_not_now(later, first) is None
    assert "Squadron #1" in entry.why_not_now(later, second)
    assert [later.board.map.format(s.bow) for s in first.starts] == ["0927", "0928"]  # behind 1027 and 1028


def test_drepanum_port_followers_come_out_behind_their_lead() -> None:
    state = deployed("drepanum-approach")
    ports = [q for q in state.extra.queues if q.port]
    assert len(ports) == 4 and sum(len(q.galleys) for q in ports) == 27
    state = drive(state, lambda s: s.phase is Phase.COMMAND and pending(s).side == "carthaginians"
                  and s.current is None)
    lead = ports[0].ahead
    squadron = state.squadron_of(lead)
    follower = ports[0].galleys[0]
    assert follower in squadron.galleys
    start = state.galley(lead).position
    with pytest.raises(IllegalOrder, match="6.6|share"):  # the lead still in port
        scenario_play.check(state, Activate(side="carthaginians", squadron=squadron.key,
                                            plans=(Plan(follower, SpeedSide.CRUISE, 0, ()),)))
    assert start is not None
    assert entry.offmap_text("behind g5-11", state.board.map) == "behind G5-11"
    assert entry.offmap_text("enter 3028", state.board.map) == "enter 3028"
    assert entry.offmap_text("3028-3027", state.board.map) is None
