"""How many files a person must write per game turn (prints, never asserts).

    python bench/person_files.py [SCENARIO ...] [--seeds N] [--turns T] [--kinds]

Plays the demo player (engine.war_galley.play.agent) through the protocol's rhythm without
the signatures: files alternate between the two players; a file carries its
author's decisions while the rules ask him, up to the first that rolls dice
(docs/protocol.md); a file with no decision is an acknowledgement the tool
writes by itself. Counts, per game turn, all files and the person-written
ones (those carrying a decision), over game turns 1.. (the deployment, turn 0,
left out), three ways:

- without: a player who writes every decision after its die and alternation;
- defaults: the orders a person is offered by default, those that lose nothing
  the rules give him (engine.war_galley.play.agent with `shortcuts`): a Crew check with
  both results (5.31), a transfer with the next decision for both results of its
  die (5.52), the side's other squadrons' Speed Levels (6.12), the initiative choice
  for this turn where nothing reaches him before the roll (3.2);
- every advance order: also standing orders for phases B-D (engine.war_galley.turn.standing)
  and boarding declared with the grapples (8.21), each giving up an answer.

The floor, printed with the defaults, counts the person-written files at which
new information did reach their author since his last one: an opponent's
decision, or dice he must answer (any but those the defaults answer before
they are rolled: the Crew check's, the transfer's, the initiative roll).
`--kinds` adds which decisions the person-written files carried.
"""

from __future__ import annotations

import random
import statistics
import sys
from collections import Counter

from engine.dice import NoDice
from engine.events import DieRolled
from engine.war_galley.battles.scenario_files import BATTLES_DIR
from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.play import agent
from engine.war_galley.play import dispatch as play
from engine.war_galley.turn import sequence
from engine.war_galley.turn.state import GameState

KINDS: Counter[tuple[str, str]] = Counter()
MODES = {"without": (False, False), "defaults": (True, False), "every advance order": (True, True)}
ANSWERED_BEFORE = ("5.31", "5.52", "3.2")  # dice whose every result the defaults order for in advance


def news(events: list) -> bool:
    """Whether events carry dice a player must answer (the floor's "new information")."""
    return any(isinstance(e, DieRolled) and e.rule not in ANSWERED_BEFORE for e in events)


class SeededDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def d6(self, purpose: str) -> int:
        return self.rng.randint(1, 6)

    def two_d6(self, purpose: str) -> int:
        return self.d6(purpose) + self.d6(purpose)


def play_files(name: str, seed: int, turns: int, mode: str) -> tuple[Counter[int], Counter[int], Counter[int]]:
    """(files, person-written files, person-written files at which news reached him) per turn of one game."""
    shortcuts, advance = MODES[mode]
    rng, dice = random.Random(seed), SeededDice(random.Random(seed + 1000))
    state: GameState = new_game((BATTLES_DIR / f"{name}.toml").read_bytes(), default_rules_data(), {})
    state, _ = sequence.advance(state, dice)
    sides = [s.key for s in state.sides]
    author = 0
    files: Counter[int] = Counter()
    person: Counter[int] = Counter()
    floor: Counter[int] = Counter()
    informed = {side: True for side in sides}  # news since the side's last person-written file
    for _ in range(3000):
        if state.result is not None or state.turn > turns:
            break
        turn = state.turn
        files[turn] += 1
        decisions = []
        side = sides[author]
        events: list = []
        while play.pending(state).side == side:
            decision = agent.choose(state, side, rng, halt_after=turns + 5, shortcuts=shortcuts, advance=advance)
            decisions.append(decision)
            try:
                state, more = play.apply(state, decision, NoDice())
            except NoDice.Needed:
                state, more = play.apply(state, decision, dice)
                events += more
                break
            events += more
        if decisions:
            person[turn] += 1
            floor[turn] += informed[side]
            informed[side] = False
            informed[sides[1 - author]] = True  # the opponent sees a decision he may answer
            KINDS[(mode, "+".join(type(d).__name__ for d in decisions))] += 1
        state, more = sequence.advance(state, dice)
        if news(events + more):
            informed = {s: True for s in sides}
        author = 1 - author
    return files, person, floor


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
        for mode in MODES:
            per_turn: list[int] = []
            all_files: list[int] = []
            floors: list[int] = []
            for seed in range(seeds):
                files, person, floor = play_files(name, seed, turns, mode)
                played = [t for t in sorted(files) if t >= 1]  # game turns; turn 0 is the deployment
                per_turn += [person[t] for t in played]
                all_files += [files[t] for t in played]
                floors += [floor[t] for t in played]
            extra = ""
            if mode == "defaults":
                extra = (f"; floor {statistics.mean(floors):5.1f}, defaults "
                         f"{sum(per_turn) / max(1, sum(floors)):4.2f}x the floor")
            print(f"{name:12} {mode:19}: person-written files per game turn {statistics.mean(per_turn):5.1f} "
                  f"(min {min(per_turn)}, max {max(per_turn)}); all files per turn {statistics.mean(all_files):5.1f}"
                  f"{extra}  [{seeds} games x {turns} turns]")
            if "--kinds" in argv:
                for (used, kinds), n in KINDS.most_common():
                    if used == mode:
                        print(f"    {n:4} {kinds}")
            KINDS.clear()


if __name__ == "__main__":
    main(sys.argv[1:])
