"""The table as a report draws it: coast, land, shallows, wind, elements with facing, the general."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import jinja2

from engine.datafiles import templates_dir
from engine.fleets.ruleset import RULESET
from engine.fleets.view import table_view
from tests.engine.fleets.test_random_play import SeededDice

SVG = "{http://www.w3.org/2000/svg}"


def deployed_salamis():  # type: ignore[no-untyped-def]
    state = RULESET.new_game(RULESET.builtin_scenario("salamis-480") or b"", RULESET.default_rules_data(), {})
    for order in ("wind from N", "attack from S", "place rest", "place rest"):
        state, _ = RULESET.apply(state, RULESET.parse_order(order, state), SeededDice(1))
        state, _ = RULESET.advance(state, SeededDice(1))
    return state


def test_the_template_draws_every_part_of_the_table() -> None:
    state = deployed_salamis()
    view = table_view(state)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())), autoescape=True)
    svg = env.get_template(view["template"]).render(v=view)
    root = ET.fromstring(svg)
    land = root.findall(f".//{SVG}rect")
    classes = [r.get("class", "") for r in land]
    assert classes.count("land coast") == 2 and classes.count("land island") == 1
    assert classes.count("shallows") == 3  # two coasts and Psyttaleia
    assert root.find(f".//{SVG}line[@class='wind']") is not None and "wind from" in svg
    # one <g> per element (24) inside the layer the archive viewer redraws
    assert root.find(f".//{SVG}g[@class='elements']") is not None
    groups = [g for g in root.findall(f".//{SVG}g") if "element" in g.get("class", "").split()]
    assert len(groups) == 24
    greeks = [g for g in groups if "side-greeks" in g.get("class", "")]
    assert {g.get("data-heading") for g in greeks} == {"S"}  # facing the Persians from the N edge
    assert [g.get("data-id") for g in groups if "general" in g.get("class", "")] == ["G9", "P1"]
    assert all(g.find(f"{SVG}polygon[@class='bow']") is not None for g in groups)


def test_screen_coordinates_put_north_up() -> None:
    view = table_view(deployed_salamis())
    greek = next(e for e in view["elements"] if e["id"] == "G1")
    persian = next(e for e in view["elements"] if e["id"] == "P1")
    assert greek["cy"] < persian["cy"]  # the Greeks at the north edge are drawn at the top


def test_the_table_has_a_grid_in_paces_as_orders_are_written() -> None:
    """Issue 27: "orders are written in paces, yet ... the map has no grid or scale"."""
    view = table_view(deployed_salamis())
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())), autoescape=True)
    root = ET.fromstring(env.get_template(view["template"]).render(v=view))
    labels = [t.text for t in root.findall(f".//{SVG}text[@class='grid-label']")]
    assert labels.count("1200") == 2 and labels.count("2400") == 2 and "paces (x east, y north); grid 200p" in labels
    assert len(root.findall(f".//{SVG}line[@class='grid']")) == 2 * 13  # every 200p from 0 to 2400, both ways


def test_each_base_shows_its_type_and_no_base_hides_the_wind_label() -> None:
    """Issue 27, fleets item 9: "bases show only an id, not the type; the wind label hides under the bases". Each
    base draws its type under its id; the wind's label is drawn after (so above) every base."""
    state = deployed_salamis()
    view = table_view(state)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())), autoescape=True)
    root = ET.fromstring(env.get_template(view["template"]).render(v=view))
    groups = [g for g in root.iter(f"{SVG}g") if "element" in g.get("class", "").split()]
    assert len(groups) == len(state.elements) == 24
    types = {e.id: e.type for e in state.elements}
    for g in groups:
        assert [t.text for t in g.findall(f"{SVG}text[@class='type']")] == [types[g.get("data-id")]]
    order = list(root.iter())
    label = root.find(f".//{SVG}text[@class='wind-label']")
    assert label is not None and label.text and label.text.startswith("wind from")
    assert all(order.index(label) > order.index(g) for g in groups)
