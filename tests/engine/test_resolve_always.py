"""No decision the check accepts fails to resolve, whatever the dice (issue 22, item 7).

The referee checks a file's decisions with sealed dice: each is applied up to its first die,
and applied again with the dice once the next file reveals them. A decision that passed that check
and then refused under some dice could never be resolved: the next file could never be written, and a
losing player could freeze a game on bad dice. Here, over every built-in battle of both rulesets:

- the decisions a player could sign at a point of play: the listed ones (the legal-action generator's),
  and hostile ones made of their parts (orders from several listed activations of the squadron mixed,
  repeated, reordered, given to another galley; an Individual Squadron's alternatives swapped);
- the check: `apply` with dice that refuse to roll (engine.dice.NoDice): a rules error is a refusal, the
  request for a die means "accepted, the rest waits for the dice";
- each accepted one resolved under many dice sequences, with the automatic steps after it: none may raise.

Seeded loops, not hypothesis: a point of play costs a game's worth of decisions to reach, and the
search is over the dice and the mixes there. RESOLVE_ALWAYS_SCALE=N (default 1) plays N times as many
points and dice; the default keeps each ruleset well under a minute on one core.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections import Counter
from typing import Any

import pytest

from engine.dice import NoDice
from engine.war_galley.battles.scenario_files import BATTLES_DIR

SCALE = max(1, int(os.environ.get("RESOLVE_ALWAYS_SCALE", "1")))
REVEALS = 8 * SCALE  # dice sequences per accepted decision


class SeededDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def d6(self, purpose: str) -> int:
        return self.rng.randint(1, 6)

    def two_d6(self, purpose: str) -> int:
        return self.d6(purpose) + self.d6(purpose)


def checked(ruleset: Any, state: Any, decision: Any) -> str | None:
    """The sealed check: "dice" (accepted, waits for its die), "done" (accepted, no die), None (refused)."""
    try:
        ruleset.apply(state, decision, NoDice())
    except NoDice.Needed:
        return "dice"
    except ruleset.illegal_errors:
        return None
    return "done"


def resolve_everywhere(ruleset: Any, state: Any, decision: Any, seed: str, failures: list[str]) -> None:
    """Resolve an accepted decision and the automatic steps after it under REVEALS dice sequences."""
    for reveal in range(REVEALS):
        dice = SeededDice(random.Random(f"{seed}/{reveal}"))
        try:
            after, _ = ruleset.apply(state, decision, dice)
            ruleset.advance(after, dice)
        except Exception as exc:  # any failure after the check accepted it freezes a game
            failures.append(f"{seed} reveal {reveal}: `{ruleset.format_order(decision)}`: {type(exc).__name__}: {exc}")
            return


# --- War Galley -----------------------------------------------------------------------------------------

# Every battle as the book sets it (Drepanum in its two parts), and the options adding rules that act in an
# activation.
WAR_GALLEY = [(p.stem, {}) for p in sorted(BATTLES_DIR.glob("*.toml"))] + [
    ("lade", {"treachery": "on"}), ("naulochus", {"flame": "on", "towers": "on"}),
    ("ecnomus", {"transports": "towed"}),
]
TURNS = 4 * SCALE  # a game's first turns: the fleets close and fight from the second or third
ORDER_LISTS = ("plans", "fire", "grapple", "disengage", "firepots", "refloat")


def _galley_of(part: str, item: Any) -> str:
    galley = item["galley"] if part in ("plans", "grapple") else item["order"]["galley"] if part == "fire" else item
    return json.dumps(galley, sort_keys=True)


def _swap_galleys(decision: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    """The decision with two galleys' ids exchanged everywhere: each galley given the other's orders."""
    text = json.dumps(decision, sort_keys=True)
    return json.loads(text.replace(a, "\0").replace(b, a).replace("\0", b))


def mixed_activation(rng: random.Random, listed: list[dict[str, Any]]) -> dict[str, Any]:
    """An activation a cheater might sign: a listed one, each order list replaced by parts of the
    squadron's listed activations (some repeated, some reordered), perhaps two galleys' orders swapped."""
    base = copy.deepcopy(rng.choice(listed))
    same = [a for a in listed if a.get("squadron") == base.get("squadron") and a.get("also") == base.get("also")]
    for part in ORDER_LISTS:
        pool = [item for a in same for item in a.get(part, [])]
        if not pool or rng.random() < 0.3:
            continue
        chosen = rng.sample(pool, rng.randint(0, min(4, len(pool))))
        if rng.random() < 0.2:
            chosen.append(rng.choice(pool))  # one order twice
        elif rng.random() < 0.5:  # at most one a galley, as a careful player writes
            chosen = list({_galley_of(part, item): item for item in chosen}.values())
        rng.shuffle(chosen)
        base[part] = chosen
    galleys = sorted({_galley_of(part, item) for part in ORDER_LISTS for a in same for item in a.get(part, [])})
    if len(galleys) >= 2 and rng.random() < 0.3:
        base = _swap_galleys(base, *rng.sample(galleys, 2))
    boards = [a["board"] for a in same if a.get("board") is not None]
    if boards and rng.random() < 0.5:
        base["board"] = rng.choice(boards)
    return base


COMBAT_STEPS = ("Ram", "Rake", "PassThrough", "Anastrophe", "JettisonTowers")  # the steps' JSON tags


def fights(decision: dict[str, Any]) -> bool:
    """Whether the decision orders combat (steps, fire, grapples, boarding) or a roll to get off the land."""
    if decision.get("kind") == "individual":
        return any(fights(decision[k]) for k in ("if_free", "if_held") if decision.get(k))
    if decision.get("kind") == "board":
        return bool(decision.get("parties"))
    if decision.get("kind") != "activate":
        return False
    steps = [step for plan in decision.get("plans", []) for step in plan.get("steps", [])]
    return bool(any(decision.get(k) for k in ("fire", "grapple", "disengage", "refloat", "board"))
                or any(isinstance(step, dict) and step.get("type") in COMBAT_STEPS for step in steps))


def war_galley_candidates(rng: random.Random, listed: list[Any]) -> list[Any]:
    """The listed decisions that roll dice, and hostile mixes of them."""
    kinds = Counter(d.get("kind") for d in listed if isinstance(d, dict))
    activations = [d for d in listed if isinstance(d, dict) and d.get("kind") == "activate"]
    individuals = [d for d in listed if isinstance(d, dict) and d.get("kind") == "individual"]
    out = [d for d in listed if isinstance(d, dict) and d.get("kind") in ("activate", "individual", "double",
                                                                           "transfer", "board")]
    out = rng.sample(out, min(len(out), 3))
    if kinds["activate"]:
        out += [mixed_activation(rng, activations) for _ in range(4)]
    alternatives = [d[k] for d in individuals for k in ("if_free", "if_held") if d.get(k)]
    for _ in range(2 if individuals else 0):
        mixed = copy.deepcopy(rng.choice(individuals))
        for key in ("if_free", "if_held"):
            if alternatives and rng.random() < 0.6:
                mixed[key] = mixed_activation(rng, alternatives) if rng.random() < 0.5 else rng.choice(alternatives)
        out.append(mixed)
    return out


def war_galley_game(name: str, options: dict[str, Any], seed: int, points: int,
                    failures: list[str], seen: Counter[str]) -> None:
    from engine.war_galley.battles import choices
    from engine.war_galley.play import agent
    from engine.war_galley.play import legal as legal_actions
    from engine.war_galley.ruleset import RULESET
    from engine.war_galley.turn.decisions import to_json
    from tests.engine.war_galley.scenario_support import commit, new, opening

    rng = random.Random(f"resolve-always/{name}/{options}/{seed}")
    state = new(name, options)
    state, _ = RULESET.advance(state, SeededDice(rng))
    committed: dict[str, str] = {}
    tried = 0
    while RULESET.result(state) is None and tried < points and state.turn <= TURNS:
        want = choices.wanted(state)
        if want is not None:  # a secret choice (Actium's Treasure Ship): committed, then opened, with our salt
            if want.kind == "commit":
                committed[want.label] = str(RULESET.choose(state, want.side, rng).get("value"))
                decision = commit(want.label, committed[want.label])
            else:
                decision = opening(want.label, committed[want.label])
            state, _ = RULESET.apply(state, decision, SeededDice(rng))
            state, _ = RULESET.advance(state, SeededDice(rng))
            continue
        decisions = legal_actions.legal(state)  # listed once: the demo player below chooses from it too
        listed = [to_json(d) for d in decisions]  # RULESET.legal(state)
        candidates = war_galley_candidates(rng, listed)
        for number, decision in enumerate(candidates):
            verdict = checked(RULESET, state, decision)
            if verdict is None:
                continue
            # One that rolls no die was applied whole by the check; the automatic steps after it may still roll.
            tried += verdict == "dice" and decision["kind"] in ("activate", "individual")  # many orders, and dice
            seen[f"{decision['kind']}:{verdict}"] += 1
            seen["fights"] += fights(decision)
            seen.update(part for part in ORDER_LISTS if decision.get(part))
            resolve_everywhere(RULESET, state, decision, f"{name}{options or ''} seed {seed} turn {state.turn} "
                                                         f"#{number}", failures)
        decision = to_json(agent.choose(state, RULESET.pending(state).side, rng, listed=decisions))  # RULESET.choose
        state, _ = RULESET.apply(state, decision, SeededDice(rng))
        state, _ = RULESET.advance(state, SeededDice(rng))


@pytest.mark.parametrize(("name", "options"), WAR_GALLEY, ids=lambda v: v if isinstance(v, str) else ",".join(v))
def test_war_galley_accepted_decisions_resolve_under_every_dice(name: str, options: dict[str, Any]) -> None:
    failures: list[str] = []
    seen: Counter[str] = Counter()
    for seed in range(SCALE):
        war_galley_game(name, options, seed, points=20, failures=failures, seen=seen)
    assert not failures, "\n".join(failures[:20])
    print(name, options, dict(seen))
    assert seen["activate:dice"] + seen["individual:dice"] >= 5, f"too few activations with dice: {dict(seen)}"


# --- Fleet battles ----------------------------------------------------------------------------------------


def _nudged(rng: random.Random, decision: dict[str, Any]) -> dict[str, Any]:
    """A listed fleet order pushed off what the listing found: waypoints, turn, vector or distance moved."""
    out = copy.deepcopy(decision)
    if out.get("kind") == "move":
        out["to"] = [[x + rng.randint(-150, 150), y + rng.randint(-150, 150)] for x, y in out.get("to", [])]
        if rng.random() < 0.3:
            out["turn"] = rng.choice([0, 45, 90, 180, 270, 315])
        if rng.random() < 0.3:
            out["contact"] = rng.choice([None, "front", "left", "right", "rear"])
    elif out.get("kind") == "shift":
        out["dx"], out["dy"] = out["dx"] + rng.randint(-200, 200), out["dy"] + rng.randint(-200, 200)
    elif out.get("kind") == "back":
        out["distance"] = rng.randint(-50, 400)
    return out


def fleets_game(name: str, seed: int, failures: list[str], seen: Counter[str]) -> None:
    from engine.fleets import agent, legal
    from engine.fleets.decisions import to_json
    from engine.fleets.ruleset import RULESET

    rng = random.Random(f"resolve-always/fleets/{name}/{seed}")
    state = RULESET.new_game(RULESET.builtin_scenario(name) or b"", RULESET.default_rules_data(), {})
    state, _ = RULESET.advance(state, SeededDice(rng))
    steps = 0
    while not RULESET.pending(state).finished and steps < 400:
        steps += 1
        decisions = legal.legal(state)  # listed once: the demo player below chooses from it too
        listed = [to_json(d) for d in decisions]  # RULESET.legal(state)
        candidates = rng.sample(listed, min(3, len(listed))) + [_nudged(rng, rng.choice(listed)) for _ in range(3)]
        for number, decision in enumerate(candidates):
            verdict = checked(RULESET, state, decision)
            if verdict is None:
                continue
            # docs/fleets-rules.md: a fleet decision rolls no die (a drift is the wind's, the PIPs and close
            # combat are the automatic steps'): the check applies it whole.
            if verdict == "dice":
                failures.append(f"{name} seed {seed} step {steps}: `{RULESET.format_order(decision)}` asks for a die")
                continue
            seen[decision["kind"]] += 1
            resolve_everywhere(RULESET, state, decision, f"{name} seed {seed} step {steps}.{number}", failures)
        decision = to_json(agent.choose(state, rng, listed=decisions))  # RULESET.choose
        state, _ = RULESET.apply(state, decision, SeededDice(rng))
        state, _ = RULESET.advance(state, SeededDice(rng))


def _fleet_names() -> list[str]:
    from engine.fleets import scenario

    return scenario.builtin_names()


@pytest.mark.parametrize("name", _fleet_names())
def test_fleets_accepted_decisions_need_no_die_and_resolve_under_every_dice(name: str) -> None:
    failures: list[str] = []
    seen: Counter[str] = Counter()
    for seed in range(SCALE):
        fleets_game(name, seed, failures, seen)
    assert not failures, "\n".join(failures[:20])
    assert seen["move"] + seen["shift"] + seen["back"] >= 10 and seen["drift"] + seen["end"] > 0, dict(seen)

