"""The view contract and the reports rendered from it, without a browser."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pbem.reports import report
from pbem.game import ruleset as rulesets
from pbem.game.referee import Game


def plain(value: Any) -> bool:
    """Only what the contract allows: dict/list/str/int/bool/None (no engine objects, no tuples)."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain(v) for v in value)
    return value is None or isinstance(value, (str, int, bool))


def test_the_war_galley_view_is_plain_data(tauris: Game) -> None:
    span = report.turn_spans(tauris)[2]
    data = report.context(tauris, span, {"ranges": True, "reach": ["GRL-1"]})
    assert plain(data["view"])
    assert data["view"]["map"]["ranges"] and data["view"]["map"]["reach"][0]["count"] > 0


def test_the_duel_view_is_plain_data() -> None:
    duel = rulesets.find("duel")
    state = duel.new_game(duel.builtin_scenario("duel") or b"", duel.default_rules_data(), {})
    assert plain(duel.view(state, [], None, {}))


def test_every_galley_on_the_map_is_one_counter(tauris: Game, actium: Game) -> None:
    for game in (tauris, actium):
        span = report.latest_span(game)
        state = game.resolutions[span.last].state
        html = report.render(game, span)
        on_map = sorted(str(g.id) for g in state.galleys if g.position is not None)
        drawn = sorted(re.findall(r'<g class="counter [a-z ]+" data-galley="([^"]+)"', html))
        assert drawn == on_map
    assert len(drawn) == 110  # Actium's two fleets, all deployed


def test_every_die_of_the_recorded_game_is_explained_and_derived(tauris: Game) -> None:
    """Every recorded roll is joined to a table roll, and the derivation recomputes its face."""
    explained = 0
    for span in report.turn_spans(tauris):
        for entry in report.context(tauris, span)["files"]:
            assert entry["unexplained"] == []
            for die in entry["dice"]:
                assert die["rolls"], die
                if not die["reuses"]:
                    assert sum(r["face"] for r in die["rolls"]) == die["natural"]
                    explained += len(die["rolls"])
                for roll in die["rolls"]:
                    assert 0 <= roll["byte"] < 252 and roll["face"] == 1 + roll["byte"] % 6
    assert explained == sum(len(r.rolls) for r in tauris.resolutions.values())


def test_a_ram_shows_table_range_modifiers_and_result(tauris: Game) -> None:
    dice = [d for span in report.turn_spans(tauris) for f in report.context(tauris, span)["files"] for d in f["dice"]]
    ram = next(d for d in dice if d["table"] == "Ramming Table")
    assert ram["needed"] and ram["result"] and ram["adjusted"] == ram["natural"] + sum(v for _, v in ram["modifiers"])
    assert len(ram["rolls"]) == 2
    fatigue = next(d for d in dice if d["table"] == "Fatigue")
    assert fatigue["cross_index"].startswith("Crew ")


def test_a_turn_report_holds_events_sheets_and_next(tauris: Game) -> None:
    html = report.render(tauris, report.turn_span(tauris, 2))
    assert "Fleet Battle Sheet: " in html and html.count('class="event') > 20
    assert 'id="next"' in html and "How this roll was made" in html
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html and "<link" not in html and "@import" not in html


def test_the_report_of_a_file_the_dice_do_not_yet_resolve_is_refused(tauris: Game) -> None:
    from pbem.errors import UsageError

    with pytest.raises(UsageError, match="no outcome to report yet"):
        report.file_span(tauris, len(tauris.files) - 1)
    with pytest.raises(UsageError, match="turn 9 has no resolved file"):
        report.turn_span(tauris, 9)


def test_hostile_names_and_notes_are_escaped(hostile: Game) -> None:
    from tests.reports.conftest import HOSTILE_NAME, HOSTILE_NOTE

    html = report.render(hostile, report.latest_span(hostile))
    assert HOSTILE_NAME not in html and HOSTILE_NOTE not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'id="injected"' not in html


def test_svg_texts_writes_what_the_escaped_template_loop_wrote() -> None:
    # The hex numbers of a map are written by one filter, not a loop of three escaped values a hex;
    # its output must be the loop's, byte for byte, whatever the text (a custom battle names its sheets).
    loop = report.environment().from_string(
        '{% for x, y, t in items %}<text x="{{ x }}" y="{{ y }}">{{ t }}</text>{% endfor %}')
    nasty = ["1019", "N3719", "<script>alert(1)</script>", "a&b", "it's", 'say "hi"', "&amp;", "é\u202e", ""]
    items = [[str(i), f"{i}.5", text] for i, text in enumerate(nasty)] + [[1, 2.5, 3]]
    assert str(report.svg_texts(items)) == loop.render(items=items)
    assert "<script>" not in str(report.svg_texts(items))
