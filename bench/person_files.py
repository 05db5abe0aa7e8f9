"""How many files a person must write per game turn (prints, never asserts).

    python bench/person_files.py [SCENARIO ...] [--seeds N] [--turns T]

Plays the demo player (engine.war_galley.play.agent) through the protocol's rhythm without
the signatures: files alternate between the two players; a file carries its
author's decisions while the rules ask him, up to the first that rolls dice
(docs/protocol.md); a file with no decision is an acknowledgement the tool
writes by itself. Counts, per game turn, all files and the person-written
ones (those carrying a decision), over game turns 1.. (the deployment, turn 0,
left out), with the shortcuts (engine.war_galley.play.shortcuts) used by the demo player and
without. `--kinds` adds which decisions the person-written files carried.
"""

from __future__ import annotations

import random
import statistics
import sys
from collections import Counter

from engine.dice import NoDice
from engine.war_galley.battles.scenario_files import BATTLES_DIR
from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.play import agent
from engine.war_galley.play import dispatch as play
from engine.war_galley.turn import sequence
from engine.war_galley.turn.state import GameState

KINDS: Counter[tuple[bool, str]] = Counter()


class SeededDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def d6(self, purpose: str) -> int:
        return self.rng.randint(1, 6)

    def two_d6(self, purpose: str) -> int:
        return self.d6(purpose) + self.d6(purpose)


def play_files(name: str, seed: int, turns: int, shortcuts: bool) -> tuple[Counter[int], Counter[int]]:
    """(files per turn, person-written files per turn) of one game."""
    rng, dice = random.Random(seed), SeededDice(random.Random(seed + 1000))
    state: GameState = new_game((BATTLES_DIR / f"{name}.toml").read_bytes(), default_rules_data(), {})
    state, _ = sequence.advance(state, dice)
    sides = [s.key for s in state.sides]
    author = 0
    files: Counter[int] = Counter()
    person: Counter[int] = Counter()
    for _ in range(3000):
        if state.result is not None or state.turn > turns:
            break
        turn = state.turn
        files[turn] += 1
        decisions = []
        side = sides[author]
        while play.pending(state).side == side:
            decision = agent.choose(state, side, rng, halt_after=turns + 5, shortcuts=shortcuts)
            decisions.append(decision)
            try:
                state, _ = play.apply(state, decision, NoDice())
            except NoDice.Needed:
                state, _ = play.apply(state, decision, dice)
                break
        if decisions:
            person[turn] += 1
            KINDS[(shortcuts, "+".join(type(d).__name__ for d in decisions))] += 1
        state, _ = sequence.advance(state, dice)
        author = 1 - author
    return files, person


def main(argv: list[str]) -> None:
    seeds, turns, names = 3, 3, []
    args = iter(argv)
    for arg in args:
        if arg == "--seeds":
            seeds = int(next(args))
        elif arg == "--turns":
            turns = int(next(args))
        elif not arg.startswith("--"):
            names.append(arg)
    for name in names or ["tauris", "myonessus"]:
        for shortcuts in (False, True):
            per_turn: list[int] = []
            all_files: list[int] = []
            for seed in range(seeds):
                files, person = play_files(name, seed, turns, shortcuts)
                played = [t for t in sorted(files) if t >= 1]  # game turns; turn 0 is the deployment
                per_turn += [person[t] for t in played]
                all_files += [files[t] for t in played]
            label = "with shortcuts" if shortcuts else "without      "
            print(f"{name:16} {label}: person-written files per game turn {statistics.mean(per_turn):5.1f} "
                  f"(min {min(per_turn)}, max {max(per_turn)}); all files per turn {statistics.mean(all_files):5.1f}"
                  f"  [{seeds} games x {turns} turns]")
            if "--kinds" in argv:
                for (used, kinds), n in KINDS.most_common():
                    if used == shortcuts:
                        print(f"    {n:4} {kinds}")
            KINDS.clear()


if __name__ == "__main__":
    main(sys.argv[1:])
