"""`pbem check` against any order text, for both rulesets (issue 22, item 8).

`pbem check GAME 999999999999999999999F` exited 70: the War Galley notation
built `[step] * 10**21` (OverflowError), and a 5,000-digit number anywhere a
number goes (an ID#, MP, a point's paces) raised int()'s ValueError. The
notation now reads every number with a bound (engine.numerals). Here
`check_orders`, the function behind `pbem check`, is given random text,
mutations of legal order lines (the rulesets' own listings and the examples
of docs/orders.md and docs/fleets-orders.md), huge numbers, unicode and
control characters, at every kind of decision the games reach; the one answer
allowed besides success is a refusal in one line: the ruleset's
(IllegalDecision, exit 11), or pbem's for a legal decision out of turn. A handful of the same texts go through the real command line.
"""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.exchange import intake
from pbem.signed import commitments
from pbem.signed import identity as ids
from pbem.game import session
from pbem.game import store
from pbem.game import writing
from pbem.game import ruleset as rulesets
from pbem.cli.player import check_orders
from pbem.cli.demo import choose_orders
from pbem.errors import GameOver, IllegalDecision, KeyProblem, UsageError, WrongTurn
from tests.unit.test_cli_flow import pbem, snapshot

DOCS = Path(__file__).resolve().parents[2] / "docs"
# (ruleset, scenario, files to play at most), and the kinds of decision to stop at: every kind the game asks for
GAMES = [("war-galley", "tauris", 300), ("fleets", "salamis-480", 100)]
KINDS = {"war-galley": {"deploy", "squadrons", "initiative", "speed", "activate", "individual", "board"},
         "fleets": {"wind", "attack", "place", "move"}}
HUGE = ["999999999999999999999", "9" * 5000, "-" + "9" * 30, "18446744073709551616", "0" * 40 + "1"]
ODD = ["²", "٣", "\x00", "\x1b[2J", "\u202e", "\ufeff", "\r", "\t", "é", "𓂀", "\U0010ffff", "\ud800"]


class Stops:
    """Copies of one game's folder, one at the first decision of each kind, and the listed orders there."""

    def __init__(self, keys: Path) -> None:
        self.keys = keys
        self.folders: dict[str, Path] = {}
        self.listed: list[str] = []


def _play(root: Path, name: str, scenario: str, most: int) -> Stops:
    """Solo play (both keys in one folder) by the demo player; a copy of the folder at each new kind of decision.

    The dice come from the keys (PBEM_TEST_SEED): a game that ends before every kind was met is followed by another."""
    ruleset = rulesets.find(name)
    stops = Stops(root / "keys")
    me = {"host": ids.generate("alice", stops.keys), "guest": ids.generate("bob", stops.keys)}
    info = next(s for s in ruleset.scenarios() if s.name == scenario)
    rng = random.Random(f"order-fuzz-{name}")
    for attempt in range(5):
        folder = root / f"game-{attempt}"
        session.start(folder, writing.make_invite(me["host"], "Alice", ruleset, scenario, info.sides[0], {}))
        session.accept(intake.one_file(folder / "000000.pbem"), folder, me["guest"], "Bob", 1000)
        for _ in range(most):
            game = store.load(folder)
            if game.finished() or KINDS[name] <= set(stops.folders):
                break
            role = game.next_author
            view = writing.outlook(game, me[role])
            side = game.player(role).side
            kind = view.pending.kind
            if not view.pending.finished and view.pending.side == side and kind not in stops.folders:
                stops.folders[kind] = root / kind
                shutil.copytree(folder, stops.folders[kind])
                stops.listed += [ruleset.format_order(d) for d in ruleset.legal(view.resolution.state)[:40]]
            session.move(folder, me[role], choose_orders(ruleset, view.resolution.state, side, rng), "", stops.keys)
        if KINDS[name] <= set(stops.folders):
            break
    return stops


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Stops]:
    return {name: _play(tmp_path_factory.mktemp(name), name, scenario, most) for name, scenario, most in GAMES}


def _documented() -> list[str]:
    """The order lines the docs show: backquoted in docs/orders.md, indented in docs/fleets-orders.md."""
    war_galley = re.findall(r"`([^`\n]{3,})`", (DOCS / "orders.md").read_text(encoding="utf-8"))
    fleets = re.findall(r"^    (\S.*)$", (DOCS / "fleets-orders.md").read_text(encoding="utf-8"), re.MULTILINE)
    return war_galley + [line.split("#")[0].strip() for line in fleets]


def _mutated(draw: Any, line: str) -> str:
    """A line with a few pieces inserted, deleted, replaced or repeated."""
    pieces = st.sampled_from(HUGE + ODD + list("0123456789-+:;,@|/ FPSBRKXJM") + ["max", "cruise", "then board",
                                                                                   "to", "contact", "facing"])
    text = line
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "replace", "repeat", "number"]))
        if how == "insert":
            text = text[:at] + draw(pieces) + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
        elif how == "replace":
            text = text[:at] + draw(pieces) + text[at + 1:]
        elif how == "repeat":
            text = text[:at] + text[at:at + 6] * draw(st.integers(2, 400)) + text[at:]
        else:  # every number in the line made huge, negative or odd
            text = re.sub(r"\d+", lambda _: draw(st.sampled_from(HUGE + ["-1", "0", "²", "٣"])), text)
    return text


@st.composite
def order_text(draw: Any, listed: list[str]) -> list[str]:
    """One to three order lines: a listed or documented line mutated, random text, or either unchanged."""
    lines = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["mutated", "mutated", "random", "as listed"]))
        if kind == "random":
            lines.append(draw(st.text(max_size=80)))
            continue
        line = draw(st.sampled_from(listed + _documented()))
        lines.append(_mutated(draw, line) if kind == "mutated" else line)
    return lines


# `commit`/`open` lines are read by pbem before the ruleset: a malformed one is a usage error (exit 2),
# an opening with no value kept a key problem (13), as in pbem move.
_SECRET_LINE_ERRORS = (UsageError, KeyProblem)


def _check_never_crashes(stops: Stops, kind: str, lines: list[str]) -> None:
    folder = stops.folders[kind]
    try:
        result = check_orders(folder, lines, stops.keys, None)
    # The ruleset's illegal and notation errors, as pbem reports them, and a decision that is legal but
    # follows one that ends the player's turn (WrongTurn) or the game (GameOver). Not RulesetFailure, not 70.
    except (IllegalDecision, WrongTurn, GameOver, *_SECRET_LINE_ERRORS) as exc:
        if isinstance(exc, _SECRET_LINE_ERRORS):  # pbem reads these lines itself (pbem.signed.commitments)
            assert any(commitments.is_secret_line(line.strip()) for line in lines), exc
        message = str(exc)
        assert "\n" not in message and "\x1b" not in message, message[:300]
        assert len(message) < 1000 + sum(len(repr(line)) for line in lines), message[:300]  # the input once at most
    else:
        assert result["ok"] is True


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])


@pytest.mark.parametrize("name", [name for name, _, _ in GAMES])
@FUZZ
@given(data=st.data())
def test_check_refuses_any_order_text_with_the_rulesets_error_only(games: dict[str, Stops], name: str,
                                                                  data: st.DataObject) -> None:
    stops = games[name]
    kind = data.draw(st.sampled_from(sorted(stops.folders)))
    _check_never_crashes(stops, kind, data.draw(order_text(stops.listed)))


@pytest.mark.parametrize("name", [name for name, _, _ in GAMES])
def test_the_fuzz_meets_every_kind_of_decision(games: dict[str, Stops], name: str) -> None:
    """The games stop at each decision the ruleset asks for, so the fuzz reaches every parser."""
    assert KINDS[name] <= set(games[name].folders)


@pytest.mark.parametrize("text", [
    "999999999999999999999F",  # the report of issue 22
    "activate Varus: R4-2 cruise 3: 999999999999999999999F",
    "activate Varus: R4-2 cruise 999999999999999999999: F",
    "activate Varus: R4-2 cruise 3: 999999999F",  # built a list of 10**9 steps
    "activate Varus: R4-2 cruise 3: " + "F " * 5000,
    "activate Varus: R4-" + "9" * 5000 + " cruise 3: F",
    "activate Varus: R4-2 fire R5-3 @" + "9" * 30,
    "board: R4-2 G5-86 M" + "9" * 5000,
    "speed Varus: max R4-²",
])
def test_huge_and_odd_numbers_in_war_galley_orders(games: dict[str, Stops], text: str) -> None:
    stops = games["war-galley"]
    for kind in ("activate", "speed", "board"):
        _check_never_crashes(stops, kind, [text])


@pytest.mark.parametrize("text", [
    "place G1 at 1200,80 facing ²",  # str.isdigit passed it; int() refused it
    "place G1 at 1200," + "9" * 5000 + " facing N",
    "G1 to 999999999999999999999,0",
    "G1 G2 back " + "9" * 40,
    "terrain coast S " + "9" * 5000,
])
def test_huge_and_odd_numbers_in_fleets_orders(games: dict[str, Stops], text: str) -> None:
    stops = games["fleets"]
    for kind in ("place", "move", "wind"):
        _check_never_crashes(stops, kind, [text])


@pytest.mark.parametrize("text", ["999999999999999999999F", "activate Varus: R4-2 cruise 3: 99999999999999999999F",
                                  "activate Varus: R4-" + "9" * 5000 + " cruise 3: F", "\x1b[2J\u202e\x7f",
                                  "speed Varus: max R4-²"])
def test_pbem_check_on_the_command_line_exits_11_in_one_line(games: dict[str, Stops], text: str) -> None:
    stops = games["war-galley"]
    folder = stops.folders["activate"]
    before = snapshot(folder)
    result = pbem("check", str(folder), "--", text, keys=stops.keys)
    assert result.returncode == 11, (result.returncode, result.stderr[-500:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: error: "), result.stderr[-500:]
    assert "Traceback" not in result.stderr and "\x1b" not in result.stderr
    assert snapshot(folder) == before


def test_bytes_that_are_not_utf8_are_refused_as_an_order(games: dict[str, Stops]) -> None:
    """Undecodable bytes in argv arrive as lone surrogates: `commit x: <0xff>` exited 70 (UnicodeEncodeError
    hashing the value)."""
    stops = games["war-galley"]
    folder = stops.folders["activate"]
    for line in ("commit treasure: \udcff", "open treasure: \udcff", "activate Varus: \udcff"):
        with pytest.raises(IllegalDecision, match="not UTF-8 text"):
            check_orders(folder, [line], stops.keys, None)
    result = pbem("check", str(folder), "--", os.fsdecode(b"commit treasure: \xff"), keys=stops.keys)
    assert result.returncode == 11 and "not UTF-8 text" in result.stderr, result.stderr


def test_pbem_check_on_the_command_line_for_the_fleets(games: dict[str, Stops]) -> None:
    stops = games["fleets"]
    result = pbem("check", str(stops.folders["place"]), "--", "place G1 at 1200,80 facing ²", keys=stops.keys)
    assert result.returncode == 11 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "is not a facing" in result.stderr
