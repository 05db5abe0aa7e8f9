"""Issue 25's acceptance: 1,000 random click sequences over 20 positions from real games (War Galley and
fleets) build only orders `pbem check` accepts; every option `pbem legal` lists there is reached by clicks.

The positions are decisions of the recorded games in examples/ (read, never written: loaded as `pbem verify`
loads them, replaying every file), each the state the author of file N decided in (the state before file N)
with the decision his: War Galley's deployment, squadrons, initiative, Speed Levels, activations early and
late in the battle (rams, rakes, fire and grapples open), Individual Squadrons and a Boarding Segment from
Tauris; the wind, the attacker, placing and moving elements from both Salamis fleet battles (fleets versions
1 and 2). The clicks are the page's own: pbem.board.table.offer asks the ruleset's `play_options` as the
server does, and every order text a click path builds, at every click, is judged by pbem.board.table.judge,
the check `pbem check` and `pbem move` make (the order parsed, then pbem.game.referee.check_decisions).

A walk clicks until nothing more is offered. At each click it picks a kind of option at random (squadron,
galley, end position, attack target, listed order, element ...), then one option of that kind: so the few
attacks beside a galley's hundred end positions, and the squadrons beside a long listing, are clicked too.
Each position's walks have their own fixed seed (the game and file): the same walks every run. Answers and
verdicts are kept per position (the same clicks in the same state are the same answer), so a click path many
walks share, and an order text several build, is asked and judged once.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.war_galley.turn import boarding_segment
from pbem.board import table
from pbem.game import store
from pbem.game.checked import Game, author_of

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
WALKS = 50  # per position: 20 x 50 = 1,000
MOST_CLICKS = 80  # a walk longer than this is an option tree that never ends: a bug

POSITIONS = [  # (recorded game, file whose author decides, the decision due)
    ("tauris-game", 3, "deploy"),
    ("tauris-game", 5, "squadrons"),
    ("tauris-game", 13, "initiative"),
    ("tauris-game", 15, "speed"),
    ("tauris-game", 17, "activate"),  # the first activation of the battle
    ("tauris-game", 25, "individual"),
    ("tauris-game", 45, "activate"),
    ("tauris-game", 51, "individual"),  # transfers open
    ("tauris-game", 70, "activate"),  # rams, then galleys moving past where the rammer ends
    ("tauris-game", 99, "activate"),  # fire and grapples open
    ("tauris-game", 108, "individual"),
    ("tauris-game", 110, "board"),  # the Boarding Segment (8.2)
    ("salamis-fleets-game", 2, "wind"),
    ("salamis-fleets-game", 3, "attack"),
    ("salamis-fleets-game", 4, "place"),
    ("salamis-fleets-game", 9, "move"),
    ("salamis-fleets-game", 16, "move"),
    ("salamis-fleets-2-game", 5, "place"),
    ("salamis-fleets-2-game", 8, "move"),
    ("salamis-fleets-2-game", 13, "move"),
]


@cache
def _game(name: str) -> Game:
    return store.load(EXAMPLES / name, use_cache=False)  # a replay from file 0; nothing read from or written to disk


class Position:
    """One decision of a recorded game, clicked as the page clicks it; answers kept (the same clicks in the
    same state are the same answer, pbem.board.table.offer being a function of them)."""

    def __init__(self, name: str, seq: int) -> None:
        self.game = _game(name)
        self.seed = f"{name} {seq}"
        self.rules = self.game.ruleset
        self.state = self.game.state_before(seq)
        self.pending = self.rules.pending(self.state)
        self.role = author_of(seq)
        self.answers: dict[tuple[str, ...], dict[str, Any]] = {}
        self.judged: set[str] = set()

    def offer(self, picks: list[str]) -> dict[str, Any]:
        key = tuple(picks)
        if key not in self.answers:
            self.answers[key] = table.offer(self.rules, self.state, picks)
        return self.answers[key]

    def judge(self, order: str) -> None:
        if order not in self.judged:
            assert table.judge(self.game, self.state, self.role, [order])["ok"]
            self.judged.add(order)


@cache
def _position(name: str, seq: int, kind: str) -> Position:
    found = Position(name, seq)
    assert found.pending.kind == kind and found.game.role_of_side(found.pending.side) == found.role
    return found


def _cases(positions: list[tuple[str, int, str]]) -> Any:
    return pytest.mark.parametrize("position", [pytest.param(p, id=f"{p[0].split('-game')[0]}-{p[1]}-{p[2]}")
                                                for p in positions], indirect=True)


@pytest.fixture
def position(request: pytest.FixtureRequest) -> Position:
    return _position(*request.param)


def test_the_positions_are_twenty_decisions_of_both_rulesets() -> None:
    assert len(set(POSITIONS)) == 20 and len(POSITIONS) * WALKS == 1000
    assert {_game(name).ruleset.name for name, _, _ in POSITIONS} == {"war-galley", "fleets"}


def _click(chooser: random.Random, options: list[dict[str, Any]]) -> str:
    kind = chooser.choice(sorted({o["kind"] for o in options}))
    return chooser.choice([o for o in options if o["kind"] == kind])["key"]


@_cases(POSITIONS)
def test_random_clicks_build_only_orders_pbem_check_accepts(position: Position) -> None:
    chooser = random.Random(position.seed)
    kinds: Counter[str] = Counter()
    built = 0
    for _ in range(WALKS):
        picks: list[str] = []
        answer = position.offer(picks)
        assert answer["offered"] and answer["options"], answer["prompt"]
        while answer["options"]:
            assert len(picks) < MOST_CLICKS, picks
            picks.append(_click(chooser, answer["options"]))
            kinds[picks[-1].split(":")[0]] += 1
            answer = position.offer(picks)
            if answer["order"]:
                position.judge(answer["order"])  # the order at every click, not only the walk's last
                built += 1
        assert answer["order"], f"{picks}: the clicks ended without an order"
    assert built >= WALKS and len(position.judged) >= min(2, len(position.rules.legal(position.state)))
    if position.pending.kind == "activate":  # the board's own clicks, not only the listing
        assert kinds["sq"] and kinds["g"] and kinds["e"], kinds


def _orders_by_clicks(position: Position, picks: list[str], depth: int) -> set[str]:
    """Every order text the click tree under `picks` builds, `depth` clicks deep (squadrons' board clicks aside:
    the next test reaches their galleys' options)."""
    answer = position.offer(picks)
    found = {answer["order"]} if answer["order"] else set()
    if depth:
        for option in answer["options"]:
            if not option["key"].startswith("sq:"):
                found |= _orders_by_clicks(position, [*picks, option["key"]], depth - 1)
    return found


@_cases(POSITIONS)
def test_every_order_pbem_legal_lists_is_reached_by_clicks(position: Position) -> None:
    listed = {position.rules.format_order(d) for d in position.rules.legal(position.state)}
    assert listed and listed <= _orders_by_clicks(position, [], 2)


SPATIAL = ("ram", "rake", "pass-through", "anastrophe", "fire", "grapple")


@_cases([p for p in POSITIONS if p[2] in ("activate", "board")])
def test_every_end_position_and_target_pbem_legal_lists_for_a_galley_is_a_click(position: Position) -> None:
    """War Galley's activations: for each squadron the board offers and each galley it offers, what
    `pbem legal GAME GALLEY` lists (the ruleset's `explain`: end positions within its MP, rams, rakes, fire,
    grapples) is offered as a click once that galley is clicked. In the Boarding Segment each boarder's targets
    (8.21; the galleys activated this phase, 8.22) are in the listing's orders."""
    if position.pending.kind == "board":
        listed = [position.rules.format_order(d) for d in position.rules.legal(position.state)]
        boarders = boarding_segment.boarders(position.state, position.state.boarders)  # 8.22: activated this phase
        wanted = {f"{g.id} {t['target']}" for g in boarders for t in _targets(position, str(g.id))
                  if t["action"] == "board"}
        assert wanted and all(any(w in order for order in listed) for w in wanted), (wanted, listed)
        return
    squadrons = [o["key"] for o in position.offer([])["options"] if o["kind"] == "squadron"]
    confusion = dict(position.state.current.confusion) if position.state.current else {}
    galleys = ends_checked = 0
    for squadron in squadrons:
        for galley in position.offer([squadron])["options"]:
            offered = position.offer([squadron, galley["key"]])["options"]
            report = position.rules.explain(position.state, galley["galley"])[0]
            cap = report["mp"] + confusion.get(galley["galley"], 0)
            ends = {r["position"] for r in report["reaches"] if r["mp"] <= cap and r["path"]}
            assert ends <= {o["position"] for o in offered if o["kind"] == "end"}, galley
            targets = {(t["action"], t["target"]) for t in report["targets"] if t["action"] in SPATIAL}
            assert targets <= {(o["action"], o["target"]) for o in offered if o["kind"] == "target"}, galley
            galleys, ends_checked = galleys + 1, ends_checked + len(ends)
    assert galleys and ends_checked


def _targets(position: Position, galley: str) -> list[dict[str, Any]]:
    return list(position.rules.explain(position.state, galley)[0]["targets"])
