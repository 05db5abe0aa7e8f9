"""Dice Duel behind the protocol's ruleset contract: the rules of engine/duel/__init__.py.

Its data is shipped where every ruleset keeps its own (scenarios/duel/, the
report templates in templates/duel/); a game pins it by hash and the
ruleset by name ("duel"), never by this module's path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import msgspec

from engine.adapter import Adapter, Pending, ScenarioInfo
from engine.datafiles import scenarios_dir

Action = Literal["guard", "strike", "lunge", "rest"]


class DuelError(Exception):
    """An illegal duel decision; the message names the rule."""


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    title: str
    sides: tuple[str, str]
    hp: int
    rounds: int


class RulesData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    hit: int
    power: int
    guard: int


class State(msgspec.Struct, frozen=True):
    sides: tuple[str, str]
    hp: tuple[int, int]
    start_hp: int
    rounds: int
    rules: RulesData
    round: int = 1
    order: tuple[int, ...] = ()  # who acts this round, first to last; () before initiative
    acted: int = 0  # how many of `order` have finished their action
    guarding: tuple[bool, bool] = (False, False)
    guarded_now: bool = False  # the acting side has guarded in this action


class Initiative(msgspec.Struct, frozen=True, tag=True):
    round: int
    rolls: tuple[int, int]
    first: str


class Guarded(msgspec.Struct, frozen=True, tag=True):
    side: str


class Attacked(msgspec.Struct, frozen=True, tag=True):
    side: str
    action: str
    roll: int
    needed: int
    damage: int


class Rested(msgspec.Struct, frozen=True, tag=True):
    side: str
    hp: int


class Ended(msgspec.Struct, frozen=True, tag=True):
    result: str


DATA_FOLDER = "duel"  # scenarios/duel/: rules.json and one <name>.json per built-in scenario
BUILTIN = ("duel", "quick")  # the built-in scenarios, in the order `pbem scenarios` lists them


def _shipped(name: str) -> bytes:
    """A shipped data file's exact bytes (a game pins their SHA-256, so they are never re-encoded)."""
    return (scenarios_dir(DATA_FOLDER) / f"{name}.json").read_bytes()


VERSIONS = ("1", "2")
REST_HP = {"1": 1, "2": 2}  # hit points a rest restores, by version (rule 3)


class Duel(Adapter):
    name = "duel"
    versions = VERSIONS
    data_folder = DATA_FOLDER  # rules_data_by_hash / scenario_by_hash: today's data, or scenarios/duel/pinned/
    illegal_errors: tuple[type[Exception], ...] = (DuelError,)

    def __init__(self, version: str = VERSIONS[-1]) -> None:
        self.version = version

    def at_version(self, version: str) -> Duel:
        if version not in VERSIONS:
            raise DuelError(f"Dice Duel {self.version} does not judge version {version}")
        return self if version == self.version else _AT[version]

    # ----- data -------------------------------------------------------------------
    def default_rules_data(self) -> bytes:
        return _shipped("rules")

    def rebind(self, state: State, rules_data: bytes, previous_rules_data: bytes) -> State:
        """The rules data travels in a duel's state, so a change of it applies at once; the version
        is this ruleset's own (the rest it judges)."""
        rules = self._rules(rules_data)
        if rules.hit < 2 or rules.power < 2 or rules.guard < 0:
            raise DuelError("rules data: hit and power must be at least 2, guard at least 0")
        return msgspec.structs.replace(state, rules=rules)

    def scenarios(self) -> list[ScenarioInfo]:
        out = []
        for name in BUILTIN:
            scenario = self._scenario(_shipped(name))
            out.append(ScenarioInfo(scenario.name, scenario.title, scenario.sides))
        return out

    def builtin_scenario(self, name: str) -> bytes | None:
        return _shipped(name) if name in BUILTIN else None

    def load_scenario(self, name_or_path: str) -> tuple[str, bytes]:
        if name_or_path in BUILTIN:
            return name_or_path, _shipped(name_or_path)
        path = Path(name_or_path)
        if not path.is_file():
            raise DuelError(f"no scenario {name_or_path!r} (built in: {', '.join(BUILTIN)})")
        data = path.read_bytes()
        return self._scenario(data).name, data

    def _scenario(self, data: bytes) -> Scenario:
        try:
            return msgspec.json.decode(data, type=Scenario)
        except msgspec.DecodeError as exc:
            raise DuelError(f"scenario: {exc}") from None

    def _rules(self, data: bytes) -> RulesData:
        try:
            return msgspec.json.decode(data, type=RulesData)
        except msgspec.DecodeError as exc:
            raise DuelError(f"rules data: {exc}") from None

    def sides(self, scenario_data: bytes, rules_data: bytes) -> tuple[str, str]:
        return self._scenario(scenario_data).sides

    # ----- the contract -----------------------------------------------------------
    def new_game(self, scenario_data: bytes, rules_data: bytes, options: dict[str, Any]) -> State:
        scenario = self._scenario(scenario_data)
        if scenario.hp < 1 or scenario.rounds < 1:
            raise DuelError("scenario: hp and rounds must be at least 1")
        return State(scenario.sides, (scenario.hp, scenario.hp), scenario.hp, scenario.rounds, self._rules(rules_data))

    def pending(self, state: State) -> Pending:
        if self.result(state) is not None:
            return Pending(None, "over", self.result(state) or "", finished=True)
        if not state.order:
            return Pending(None, "initiative", f"round {state.round}: initiative roll", automatic=True)
        side = state.sides[state.order[state.acted]]
        options = "strike, lunge or rest" if state.guarded_now else "guard, strike, lunge or rest"
        return Pending(side, "action", f"{side}: {options}")

    def legal(self, state: State) -> list[Any]:
        if self.pending(state).side is None:
            return []
        actions = ["strike", "lunge", "rest"] if state.guarded_now else ["guard", "strike", "lunge", "rest"]
        return [{"action": a} for a in actions]

    def apply(self, state: State, decision: Any, dice: Any) -> tuple[State, list[Any]]:
        pending = self.pending(state)
        if pending.side is None:
            raise DuelError("no decision is wanted now")
        if not isinstance(decision, dict) or set(decision) != {"action"}:
            raise DuelError("a decision is {'action': guard|strike|lunge|rest}")
        action = decision["action"]
        if action not in ("guard", "strike", "lunge", "rest"):
            raise DuelError(f"unknown action {action!r}")
        me = state.order[state.acted]
        if action == "guard":
            if state.guarded_now:
                raise DuelError("rule 2: guard at most once per action")
            guarding = tuple(True if i == me else g for i, g in enumerate(state.guarding))
            return msgspec.structs.replace(state, guarding=guarding, guarded_now=True), [Guarded(state.sides[me])]
        events: list[Any] = []
        hp = list(state.hp)
        if action == "rest":
            hp[me] = min(state.start_hp, hp[me] + REST_HP[self.version])
            events.append(Rested(state.sides[me], hp[me]))
        else:
            other = 1 - me
            needed = (state.rules.hit if action == "strike" else state.rules.power) + (
                state.rules.guard if state.guarding[other] else 0
            )
            roll = dice.two_d6(f"{state.sides[me]} {action}")
            damage = (1 if action == "strike" else 2) if roll >= needed else 0
            hp[other] = max(0, hp[other] - damage)
            events.append(Attacked(state.sides[me], action, roll, needed, damage))
        state = msgspec.structs.replace(state, hp=tuple(hp), acted=state.acted + 1, guarded_now=False)
        if state.acted == len(state.order) or 0 in state.hp:
            state = msgspec.structs.replace(
                state, round=state.round + 1, order=(), acted=0, guarding=(False, False)
            )
        if (result := self.result(state)) is not None:
            events.append(Ended(result))
        return state, events

    def advance(self, state: State, dice: Any) -> tuple[State, list[Any]]:
        events: list[Any] = []
        while self.pending(state).automatic:
            a, b = dice.d6(f"round {state.round} initiative {state.sides[0]}"), dice.d6(
                f"round {state.round} initiative {state.sides[1]}"
            )
            if a == b:
                events.append(Initiative(state.round, (a, b), ""))
                continue
            order = (0, 1) if a > b else (1, 0)
            state = msgspec.structs.replace(state, order=order)
            events.append(Initiative(state.round, (a, b), state.sides[order[0]]))
        return state, events

    def state_bytes(self, state: State) -> bytes:
        return msgspec.json.encode(state)

    def load_state(self, data: bytes, rules_data: bytes) -> State:
        """The inverse of `state_bytes` (the rules data travels inside a duel's state)."""
        return msgspec.json.decode(data, type=State)

    def result(self, state: State) -> str | None:
        red, blue = state.hp
        if red == 0 or blue == 0:
            return f"{state.sides[0] if blue == 0 else state.sides[1]} wins"
        if state.round > state.rounds:
            if red == blue:
                return "a draw"
            return f"{state.sides[0] if red > blue else state.sides[1]} wins on hit points"
        return None

    # ----- notation and words -------------------------------------------------------
    def parse_order(self, text: str, state: Any) -> Any:
        word = text.strip().lower()
        if word not in ("guard", "strike", "lunge", "rest"):
            raise DuelError(f"unknown order {text!r}: guard, strike, lunge or rest")
        return {"action": word}

    def format_order(self, decision: Any) -> str:
        return str(decision["action"])

    def describe(self, state: State) -> str:
        hp = ", ".join(f"{s} {h} hp" for s, h in zip(state.sides, state.hp))
        return f"round {min(state.round, state.rounds)}: {hp}"

    def describe_event(self, event: Any, state: Any = None) -> str:
        if isinstance(event, Initiative):
            return (
                f"Round {event.round} initiative: {event.rolls[0]} v {event.rolls[1]}, "
                + (f"{event.first} acts first" if event.first else "tie, roll again")
            )
        if isinstance(event, Guarded):
            return f"{event.side} guards"
        if isinstance(event, Attacked):
            outcome = f"hits for {event.damage}" if event.damage else "misses"
            return f"{event.side} {event.action}s: rolls {event.roll}, needs {event.needed}, {outcome}"
        if isinstance(event, Rested):
            return f"{event.side} rests to {event.hp} hp"
        if isinstance(event, Ended):
            return f"Game over: {event.result}"
        return repr(event)


    # ----- reports (docs/reports.md) ------------------------------------------------------
    report_templates = "duel"  # templates/duel/

    def turn(self, state: State) -> int:
        return state.round

    def view(self, state: State, events: list[Any], before: State | None = None,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
        """The duel as plain data: both sides' hit points, the events, every die explained."""
        dice: list[dict[str, Any]] = []
        for number, event in enumerate(events):
            if isinstance(event, Initiative):
                for side, roll in zip(state.sides, event.rolls):
                    dice.append({"event": number, "rule": "rule 1", "table": "Initiative", "cross_index": side,
                                 "modifiers": [], "natural": roll, "adjusted": roll, "needed": "higher than the other",
                                 "result": "acts first" if event.first == side else "tie" if not event.first else "acts second",
                                 "reuses": False})
            elif isinstance(event, Attacked):
                base = state.rules.hit if event.action == "strike" else state.rules.power
                mods = [["the defender guards (rule 2)", state.rules.guard]] if event.needed > base else []
                dice.append({"event": number, "rule": "rule 3", "table": f"{event.action.capitalize()} (2d6)",
                             "cross_index": "", "modifiers": [], "natural": event.roll, "adjusted": event.roll,
                             "needed": f"{event.needed} or more" + (f" ({base} + {mods[0][1]} for the guard)" if mods else ""),
                             "result": f"hit for {event.damage}" if event.damage else "miss", "reuses": False})
        hp_before = before.hp if before is not None else state.hp
        return {
            "ruleset": "duel",
            "title": f"Dice Duel: {state.sides[0]} v {state.sides[1]}",
            "turn": state.round,
            "phase": f"round {min(state.round, state.rounds)} of {state.rounds}",
            "summary": self.describe(state),
            "result": self.result(state),
            "sides": [{"name": side, "hp": hp, "start_hp": state.start_hp, "was": was,
                       "guarding": state.guarding[i]}
                      for i, (side, hp, was) in enumerate(zip(state.sides, state.hp, hp_before))],
            "events": [{"kind": type(e).__name__, "rule": "", "text": self.describe_event(e),
                        "die": isinstance(e, (Initiative, Attacked)), "phase": isinstance(e, Initiative)}
                       for e in events],
            "dice": dice,
            "rules": {"hit": state.rules.hit, "power": state.rules.power, "guard": state.rules.guard},
        }


RULESET = Duel()
_AT = {version: RULESET if version == RULESET.version else Duel(version) for version in VERSIONS}
