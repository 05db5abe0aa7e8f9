"""`pbem board` and `pbem orders` for fleets (issue 27: "orders are written in paces, yet `pbem board` and
`pbem orders` refuse for fleets"): every base's place in paces, and a draft whose lines are orders."""

from __future__ import annotations

from engine.fleets.notation import parse_decision
from engine.fleets.ruleset import RULESET
from tests.engine.fleets.support import N, S, Forced, battle, el

STATE = battle(el("B1", "Lib", 1200, 800, N, general=True), el("B2", "Lib", 1200, 640, N),
               el("R1", "Cat", 1200, 960, S, general=True), wind="E")


def test_the_board_gives_every_base_in_paces() -> None:
    text = RULESET.board(STATE)
    assert "  B1   Lib at 1200,800 facing N (general, in contact with R1)" in text
    assert "  B2   Lib at 1200,640 facing N" in text and "  R1   Cat at 1200,960 facing S (general, in contact with B1)" in text


def test_the_draft_keeps_end_and_offers_each_elements_orders_as_comments() -> None:
    text = RULESET.draft(STATE, "salamis")
    kept = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert kept == ["end"] and "#   pbem move salamis --orders THIS-FILE" in text
    offered = [line[4:] for line in text.splitlines() if line.startswith("#   B")]
    assert "B1 B2 back 100" in offered and "B2 drift" in offered  # B2 blocks B1 backing alone
    for line in offered:
        parse_decision(line)  # each offered order is one a player may uncomment as it stands


def test_the_set_up_draft_keeps_the_first_option() -> None:
    state = RULESET.new_game(RULESET.builtin_scenario("open-sea") or b"", RULESET.default_rules_data(), {})
    state, _ = RULESET.advance(state, Forced(1, 6))  # the aggression dice: red attacks, blue chooses first
    text = RULESET.draft(state)
    kept = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert kept == ["fleet Cat Cat Cat Lib Lib Lib Lib Lng Lng Lng Wr Tr general 1"] and "# fleet Lib Lib" in text
