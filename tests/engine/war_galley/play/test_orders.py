"""Movement orders notation (engine.war_galley.play.orders, docs/orders.md)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.war_galley.map_and_galleys.galley import Colour, GalleyId, GalleyType, parse_galley_id
from engine.war_galley.map_and_galleys.position import Side
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.steps import (
    AnyStep,
    Backwater,
    BowFlank,
    FacingChange,
    Forward,
    Half,
    Plan,
    TurnAround,
)
from engine.war_galley.play.orders import TOKENS, format_order, parse_order, parse_orders

galley_ids = st.builds(GalleyId, st.sampled_from(Colour), st.sampled_from(GalleyType), st.integers(1, 999))
steps = st.sampled_from(list(TOKENS.values()))
plans = st.builds(
    Plan, galley_ids, st.sampled_from(SpeedSide), st.integers(0, 12), st.lists(steps, max_size=12).map(tuple)
)


@given(plans)
def test_orders_round_trip(plan: Plan) -> None:
    text = format_order(plan)
    assert parse_order(text) == plan
    assert format_order(parse_order(text)) == text


@given(plans)
def test_plans_encode_as_tagged_json(plan: Plan) -> None:
    assert msgspec.json.decode(msgspec.json.encode(plan), type=Plan) == plan


def test_the_issue_example() -> None:
    plan = parse_order("G3-12 max 6: F F P F")
    assert plan == Plan(
        GalleyId(Colour.GREEN, GalleyType.TRIREME, 12),
        SpeedSide.MAXIMUM,
        6,
        (Forward(), Forward(), BowFlank(Side.PORT), Forward()),
    )


@pytest.mark.parametrize(
    "token, step",
    [
        ("F", Forward()),
        ("S", BowFlank(Side.STARBOARD)),
        ("B", Backwater()),
        ("BP", Backwater(Side.PORT)),
        ("TS", FacingChange(Side.STARBOARD)),
        ("TPS", FacingChange(Side.PORT, Half.STERN)),
        ("TSB", FacingChange(Side.STARBOARD, Half.BOW)),
        ("TA", TurnAround()),
    ],
)
def test_step_words(token: str, step: AnyStep) -> None:
    assert parse_order(f"G5-1 cruise 2: {token}").steps == (step,)


def test_lenient_reading_canonical_printing() -> None:
    plan = parse_order("  g5-86  CRUISE 4 :f,  p 2f ")
    assert format_order(plan) == "G5-86 cruise 4: F P F F"
    assert format_order(parse_order("Rcat3-5 m 0:")) == "Rcat3-5 max 0:"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("G3-12 max 6 F F", "not a movement order"),
        ("G3-12 fast 6: F", "say cruise or max"),
        ("G3-12 max six: F", "not a movement order"),
        ("X3-12 max 6: F", "not a galley id"),
        ("G3-12 max 6: F Q", "unknown step 'Q'"),
        ("G3-12 max 6: Z:R5-3", "not a combat step"),
        ("G3-12 max 6: R:R5-3:Q", "out of place"),
    ],
)
def test_bad_orders_say_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment):
        parse_order(text)


def test_an_email_of_orders() -> None:
    text = """
    # Green squadron, turn 3
    G3-12 max 6: F F P F F F
    Gcat3-5 cruise 3: B BP    # backing off

    G5-86 cruise 0:
    """
    plans = parse_orders(text)
    assert [p.galley for p in plans] == [parse_galley_id(t) for t in ("G3-12", "Gcat3-5", "G5-86")]
    assert plans[1].steps == (Backwater(), Backwater(Side.PORT))
    with pytest.raises(NotationError, match="line 2"):
        parse_orders("G3-12 max 6: F\nG3-12 max 6: Z")


def test_the_examples_in_docs_orders_md_parse_and_run() -> None:
    """The example message in docs/orders.md parses, and round-trips."""
    text = (Path(__file__).resolve().parents[4] / "docs" / "orders.md").read_text()
    block = text.split("```")[3]  # the second fenced block: the example message
    plans = parse_orders(block)
    assert len(plans) == 5
    assert all(parse_order(format_order(plan)) == plan for plan in plans)
