"""The side's next Individual Squadron galley given with this one (5.31, engine.war_galley.play.chain)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.play import dispatch as play
from engine.war_galley.play import notation
from engine.war_galley.play.orders import parse_order
from engine.war_galley.turn.activation import CrewChecked
from engine.war_galley.turn.decisions import Activate, Individual
from engine.war_galley.turn.state import Phase, Squadron
from tests.engine.war_galley.game_support import decide, g
from tests.engine.war_galley.turn.test_activation import individual_phase


def two_left():
    """F with Rome's R5-53 and R5-52 as Individual Squadrons and Carthage's only one already activated."""
    state = individual_phase()
    squadrons = tuple(Squadron("R5-52", "rome", (g("R5-52"),)) if s.key == "Metellus" else s for s in state.squadrons)
    return replace(state, squadrons=squadrons, activated=(*state.activated, "G5-14"))


def alternatives(galley: str, free: str, held: str) -> Individual:
    return Individual(side="rome", galley=g(galley),
                      if_free=Activate(side="rome", squadron=galley, plans=(parse_order(free),)),
                      if_held=Activate(side="rome", squadron=galley, plans=(parse_order(held),)))


FIRST = alternatives("R5-53", "R5-53 cruise 2: F F", "R5-53 cruise 1: F")
SECOND = alternatives("R5-52", "R5-52 cruise 2: F F", "R5-52 cruise 1: F")


@pytest.mark.parametrize(("faces", "bows"), [((3, 3), ("3018", "2418")), ((4, 4), ("3019", "2419")),
                                             ((3, 6), ("3018", "2419"))])
def test_both_galleys_act_in_one_decision_each_by_its_own_crew_check(faces, bows) -> None:
    dice = ForcedDice(*faces)
    state, events = play.apply(two_left(), replace(FIRST, then=SECOND), dice)
    assert dice.unused == []
    assert [e.free for e in events if isinstance(e, CrewChecked)] == [f <= 3 for f in faces]
    assert (str(state.galley(g("R5-53")).position.bow), str(state.galley(g("R5-52")).position.bow)) == bows
    assert state.phase is Phase.INDIVIDUAL and {"R5-52", "R5-53"} <= set(state.activated)


def test_the_chain_is_the_two_decisions_a_player_would_send_one_after_the_other() -> None:
    chained, events = play.apply(two_left(), replace(FIRST, then=SECOND), ForcedDice(3, 4))
    after, first = decide(two_left(), FIRST, 3)  # then the Phase-Pass back to Rome
    assert play.pending(after).side == "rome" and play.pending(after).kind == "individual"
    after, second = play.apply(after, SECOND, ForcedDice(4))
    assert chained == after and [type(e) for e in events] == [type(e) for e in first + second]


def test_a_chain_while_the_opponent_has_a_galley_left_is_refused_before_any_die() -> None:
    state = individual_phase()  # Carthage's G5-14 is still to activate: the players alternate
    second = alternatives("R5-52", "R5-52 cruise 1: F", "R5-52 cruise 1: F")
    with pytest.raises(IllegalOrder, match=r"^5\.31: then: if free, the next Individual Squadron galley is not yours"):
        play.apply(state, replace(FIRST, then=second), ForcedDice())


def test_each_result_needs_its_alternative_and_the_next_galleys_orders_are_checked_on_each() -> None:
    only_free = replace(FIRST, if_held=None, then=SECOND)
    with pytest.raises(IllegalOrder, match="give the 'held' alternative too"):
        play.apply(two_left(), only_free, ForcedDice())
    bad = alternatives("R5-52", "R5-52 cruise 9: F F F F F F F F F", "R5-52 cruise 1: F")
    with pytest.raises(IllegalOrder, match=r"then R5-52: .*if free"):
        play.apply(two_left(), replace(FIRST, then=bad), ForcedDice())


def test_notation_reads_back_the_chain() -> None:
    text = notation.format_decision(replace(FIRST, then=SECOND))
    assert text == ("individual R5-53: free: R5-53 cruise 2: F F | held: R5-53 cruise 1: F => then "
                    "individual R5-52: free: R5-52 cruise 2: F F | held: R5-52 cruise 1: F")
    assert notation.parse_decision(text, "rome") == replace(FIRST, then=SECOND)


def test_a_chain_of_more_galleys_than_the_bound_is_refused_before_any_checked_state() -> None:
    # each Crew check doubles the states the next galley is checked on: a file nesting chains (docs/security.md)
    # must not make the referee check 2**n states; the length is refused first, whatever the links say
    from engine.war_galley.play import chain

    long = SECOND
    for _ in range(chain.MOST_GALLEYS):
        long = replace(FIRST, then=long)
    assert chain.length(long) == chain.MOST_GALLEYS + 1
    with pytest.raises(IllegalOrder, match=rf"^5\.31: then: at most {chain.MOST_GALLEYS} Individual Squadron"):
        play.apply(two_left(), long, ForcedDice())
