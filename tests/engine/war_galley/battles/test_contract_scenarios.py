"""The contract every built-in battle keeps (issue 7, Acceptance).

It loads; its fixed galleys stand legally (no overlaps, on sea, but for the
port of a `port_start`); every deployment decision it asks for accepts a
listed example and refuses a broken one (a galley put where another stands);
random legal play runs full turns with no crash and no dead end; and replaying
its decisions with the same dice forced gives the same state at every step
(the engine keeps nothing but the state; a separate random-play test checked
that over five battles, and played Tauris, Aegatian Isles and Myonessus deeper,
as this one now does).
"""

from __future__ import annotations

import random
import time

import pytest

from engine.errors import IllegalOrder
from engine.war_galley.battles import choices
from engine.war_galley.battles.deployment import check_deploy
from engine.war_galley.battles.scenario_files import BATTLES_DIR, load_scenario
from engine.war_galley.play.dispatch import pending
from engine.war_galley.play.legal import legal
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn.state import GameState, Phase
from engine.dice import ForcedDice
from engine.war_galley.turn.state_bytes import encode_state
from tests.engine.war_galley.scenario_support import RecordedDice, apply, commit, new, opening

BATTLES = [(p.stem, {}) for p in sorted(BATTLES_DIR.glob("*.toml"))] + [
    ("lade", {"treachery": "on"}), ("ecnomus", {"transports": "towed"}), ("naulochus", {"flame": "on", "towers": "on"}),
    ("drepanum-approach", {"roman_first_turn": "on"}),
]
TURNS = {"actium": 1, "lade": 1, "salamis-cyprus": 1, "naulochus": 1, "arginusae": 1, "chios": 1,
         "tauris": 4, "aegatian-isles": 3, "myonessus": 3}


@pytest.mark.parametrize(("key", "options"), BATTLES, ids=lambda v: v if isinstance(v, str) else ",".join(v) or "book")
def test_battle_keeps_the_contract(key: str, options: dict[str, object]) -> None:
    began = time.perf_counter()
    scenario = load_scenario(BATTLES_DIR / f"{key}.toml")
    port = any(s.name == "port_start" for s in scenario.special)
    state = new(key, options)
    board = state.board
    hexes = [h for g in state.galleys if g.position is not None for h in g.position.hexes]
    assert len(hexes) == len(set(hexes)), "fixed galleys overlap"
    assert all(board.is_sea(h) for h in hexes if board.map.contains(h)), "a fixed galley on land"

    rng = random.Random(key)
    dice = RecordedDice(rng)
    first = state
    state, _ = RULESET.advance(state, dice)
    log: list[tuple[object, int, bytes]] = [(None, len(dice.faces), encode_state(state))]  # decision, faces so far, state
    committed: dict[str, str] = {}
    decisions = 0
    while state.result is None and state.turn <= TURNS.get(key, 2):
        want = choices.wanted(state)
        if want is not None:  # a secret choice: committed and opened with our own salt
            if want.kind == "commit":
                committed[want.label] = str(choices.listed(state)[0].get("value") or _value(state))
                secret = commit(want.label, committed[want.label])
            else:
                secret = opening(want.label, committed[want.label])
            state = apply(state, secret, dice)
            log.append((secret, len(dice.faces), encode_state(state)))
            continue
        waiting = pending(state)
        assert waiting.side is not None and not waiting.automatic, f"{key}: dead end at {waiting}"
        options = legal(state)
        assert options, f"{key}: nothing legal for {waiting.prompt}"
        if state.phase is Phase.DEPLOYMENT:
            _refuses_a_broken_deployment(state, options[0])
        decision = rng.choice(options)
        state = apply(state, decision, dice)
        log.append((decision, len(dice.faces), encode_state(state)))
        decisions += 1
    assert state.turn > TURNS.get(key, 2) or state.result is not None
    on_map = [h for g in state.galleys if g.position is not None for h in g.position.hexes]
    assert len(on_map) == len(set(on_map)), "two galleys in one hex (6.6)"
    if not port:
        assert all(board.is_sea(h) or g.aground is not None
                   for g in state.galleys if g.position is not None for h in g.position.hexes[:1]
                   if board.map.contains(h))
    _replays_as_played(first, log, dice.faces)
    print(f"{key}: {decisions} decisions, {time.perf_counter() - began:.1f} s")


def _replays_as_played(first: GameState, log: list[tuple[object, int, bytes]], faces: list[int]) -> None:
    """Each decision applied again to the state before it with its own dice forced: the same state."""
    forced = ForcedDice(*faces[: log[0][1]])
    state, _ = RULESET.advance(first, forced)
    assert forced.unused == [] and encode_state(state) == log[0][2]
    for (decision, used, expected), (_, before, _) in zip(log[1:], log):
        forced = ForcedDice(*faces[before:used])
        state = apply(state, decision, forced)
        assert forced.unused == [], f"{decision}: dice left over on replay"
        assert encode_state(state) == expected, f"{decision}: replay differs from play"


def _value(state) -> str:  # type: ignore[no-untyped-def]
    from engine.war_galley.battles import actium as specials_actium
    return specials_actium.example_values(state)[0]


def _refuses_a_broken_deployment(state, example) -> None:  # type: ignore[no-untyped-def]
    check_deploy(state, example)  # the listed example is legal
    placed = [(g, text) for g, text in example.galleys if text[0].isdigit() or text[:1].isalpha() and text[1:2].isdigit()]
    if len(placed) < 2:
        placed = [(g, text) for g, text in example.galleys if text not in ("off",) and not text.startswith(("behind", "enter"))]
    if len(placed) < 2:
        return
    (first, _), (_, other) = placed[0], placed[1]
    broken = type(example)(side=example.side, commanders=example.commanders,
                           galleys=tuple((g, other if g == first else t) for g, t in example.galleys))
    with pytest.raises(IllegalOrder):
        check_deploy(state, broken)


# The squadrons the book sets up as a Line Astern (5.22), checked against its text, for every battle: a
# line is named by its commander (his ship first or second in it) or, where the book lets the player place
# the commander, by the bow hex of its head; the count is how many of its galleys stand on the map at
# turn 1 (the rest enter behind). A battle with {} sets up no Line Astern (line abreast, or zones).
BOOK_LINES: dict[str, dict[str, int]] = {
    "side": {"Eudamus": 8, "Pamphilidus": 8, "Chariclitus": 8},  # "three columns of Line Astern"
    # Squadrons I and II; Hanno's "direct Line Astern"; Hamilcar's two columns of 4 (Hamilcar is in
    # 3708-9, in neither); Gisgo's "7 Quinqueremes in 4714 back to 4701".
    "ecnomus": {"Regulus": 6, "Manlius": 6, "Hanno": 8, "3312": 4, "4012": 4, "Gisgo": 7},
    "lade": {"Samos": 6, "Lesbos": 7, "Chios": 7, "Teos": 3, "Miletus": 7},  # "in Line Astern, by island squadron"
    "tauris": {"Marcus Octavius": 4, "Cleomacles": 4},  # two columns, the last four entering behind
    "myonessus": {"Polyxenidas": 4, "Phillipus": 4, "Zeuxis": 4, "Minnius": 4, "Eudamus": 7},
    # The Main Squadron's 14 from its head in 2725 (Demokrates, in 2720-21, is third); the three Lembi
    # lines (8, 9, 8) each led by its Lembi SqC; the Pergamene double column, 7 and 7 (Dionysidorus is
    # placed as the player wants, so the starboard line is named by its head, 3621). The Rhodians are
    # "in some disarray" (note a): the book's hexes make Philostratus' line of 3 and Theopholiscus' of 2.
    "chios": {"2725": 14, "Lembi I": 8, "Lembi II": 9, "Lembi III": 8, "Attalus": 7, "3621": 7,
              "Philostratus": 3, "Theopholiscus": 2},
    # The Vanguard's Double Line Astern: the lead galley in 2326 heads a line of 6, 2126 the other of 5.
    "drepanum-approach": {"2326": 6, "2126": 5},
    # The remaining Romans "in double Line Astern" (the listed example: two lines of 10 from 3925, 3825);
    # the Vanguard is "not all headed in the same direction", no line.
    "drepanum-battle": {"3925": 10, "3825": 10},
    "aegatian-isles": {}, "arginusae": {}, "catana": {}, "salamis-cyprus": {}, "naulochus": {}, "actium": {},
}


def test_book_lines_cover_every_battle() -> None:
    assert sorted(BOOK_LINES) == sorted(p.stem for p in BATTLES_DIR.glob("*.toml"))


@pytest.mark.parametrize("key", sorted(BOOK_LINES))
def test_every_line_the_book_sets_up_is_one_squadron_at_turn_1(key: str) -> None:
    from engine.war_galley.turn import command
    from tests.engine.war_galley.scenario_support import deployed

    state = deployed(key)
    assert state.turn == 1
    for name, count in BOOK_LINES[key].items():
        if name[-1].isdigit():  # a head's bow hex
            head = next(g for g in state.galleys if g.position is not None and str(g.position.bow) == name)
            line = command.line_from(state, head)
        else:
            line = command.line_astern(state, state.commander(name))
        assert len(line) == count, f"{key}: {name}'s line is {len(line)} galleys, the book's {count}"
