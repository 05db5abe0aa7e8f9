"""Fleet battles behind the protocol's ruleset contract (pbem/game/ruleset.py), without importing pbem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from engine.adapter import Adapter, Pending, ScenarioInfo
from engine.fleets import agent, describe, legal as legal_orders, notation, play, report_view, scenario, text, view as views
from engine.fleets.decisions import from_json, to_json
from engine.fleets.elements import load_rules
from engine.fleets.errors import FleetsError, ScenarioError
from engine.fleets.state import State, decode_state, encode_state


# Version 2 (issue 27, docs/fleets-rules.md): a drift is never shortened by the order drifts are made in,
# and any contact drifts along; groups go straight ahead, at most half a base aside; +1 PIP beyond 1200p of
# the general or once he is lost; only Lib and Lng break off; zones of control; the moving player orders the
# combats; flank attackers recoil with their beaten friend; Transports do not follow up; nightfall is a draw.
# Version 3 (issue 27, the last mile): groups wheel (a quarter turn, measured by the outer front corner), single
# elements turn freely, and an element entering a zone of control halts in it or goes on into that enemy's front.
# Version 4 (issue 27's probe: "a line drifted in any order moves 100p"): every drift keeps its full 100p; a drifted
# element that would form a group with a friend stands a hair apart from it (State.apart), the fragment's "slightly
# separated ... so as not to form a legal group anymore", where versions 2 and 3 shortened the drift a pace a friend.
# Version 1's states carry no version (Rules.version defaults to "1", omitted from their bytes).
VERSIONS = ("1", "2", "3", "4")


class Fleets(Adapter):
    name = "fleets"
    versions = VERSIONS  # every version judged here (engine.adapter.Adapter.at_version)
    data_folder = "fleets"  # scenarios/fleets/pinned/: every rules data and scenario shipped, by hash
    illegal_errors: tuple[type[Exception], ...] = (FleetsError,)
    demo_scenario = "salamis-480"
    report_templates = "fleets"  # templates/fleets/: board, sheets, style (docs/reports.md)

    def __init__(self, version: str = VERSIONS[-1]) -> None:
        self.version = version

    def at_version(self, version: str) -> Fleets:
        if version not in VERSIONS:
            raise FleetsError(f"fleets {self.version} does not judge version {version}")
        return self if version == self.version else Fleets(version)

    def judging(self, state: State) -> State:
        """`state` stamped with this version, which the rules read (state.rules.version)."""
        if state.rules.version == self.version:
            return state
        return msgspec.structs.replace(state, rules=msgspec.structs.replace(state.rules, version=self.version))

    def default_rules_data(self) -> bytes:
        data = scenario.fleets_dir() / "rules.toml"
        return data.read_bytes()

    def scenarios(self) -> list[ScenarioInfo]:
        out = []
        for name in scenario.builtin_names():
            spec = scenario.parse(scenario.builtin(name) or b"", name)
            sizes = " v ".join(str(len(s.elements)) for s in spec.sides)
            out.append(ScenarioInfo(spec.key, f"{spec.name}: {spec.title}", (spec.sides[0].key, spec.sides[1].key),
                                       f"{spec.summary} ({sizes} elements)"))
        return out

    def builtin_scenario(self, name: str) -> bytes | None:
        return scenario.builtin(name)

    def load_scenario(self, name_or_path: str) -> tuple[str, bytes]:
        data = self.builtin_scenario(name_or_path)
        if data is not None:
            return name_or_path, data
        path = Path(name_or_path)
        if not path.is_file():
            raise ScenarioError(f"no scenario {name_or_path!r} (built in: {', '.join(scenario.builtin_names())})")
        data = path.read_bytes()
        return scenario.parse(data, "fleet scenario").key, data

    def sides(self, scenario_data: bytes, rules_data: bytes) -> tuple[str, str]:
        spec = scenario.parse(scenario_data)
        scenario.initial_state(spec, load_rules(rules_data))  # refuse a game that could not be set up, now
        return spec.sides[0].key, spec.sides[1].key

    def new_game(self, scenario_data: bytes, rules_data: bytes, options: dict[str, Any]) -> State:
        if options:
            raise ScenarioError(f"fleet battles take no options (given: {', '.join(sorted(options))})")
        spec = scenario.parse(scenario_data)
        if spec.choose and int(self.version) < 3:
            raise ScenarioError(f"{spec.key}: aggression dice and chosen fleets need fleets version 3")
        return self.judging(scenario.initial_state(spec, load_rules(rules_data)))

    def pending(self, state: State) -> Pending:
        return play.pending(state)

    def legal(self, state: State) -> list[Any]:
        return [to_json(d) for d in legal_orders.legal(state)]

    def apply(self, state: State, decision: Any, dice: Any) -> tuple[State, list[Any]]:
        return play.apply(state, from_json(decision), dice)

    def advance(self, state: State, dice: Any) -> tuple[State, list[Any]]:
        return play.advance(state, dice)

    def state_bytes(self, state: State) -> bytes:
        return encode_state(state)

    def state_from_bytes(self, data: bytes) -> State:
        return decode_state(data)

    def load_state(self, data: bytes, rules_data: bytes) -> State:
        """The contract's cache loader: the state is self-contained (it carries its rules)."""
        return self.judging(decode_state(data))

    def parse_order(self, text: str, state: State) -> Any:
        return to_json(notation.parse_decision(text))

    def format_order(self, decision: Any) -> str:
        return notation.format_decision(from_json(decision))

    def describe(self, state: State) -> str:
        return describe.state_summary(state)

    def describe_event(self, event: Any, state: State | None = None) -> str:
        return describe.event_words(event, state)

    def board(self, state: State) -> str:
        """Every base's place in paces, for `pbem board` (engine/fleets/text.py)."""
        return text.board(state)

    def draft(self, state: State, game: str = "GAME") -> str:
        """The pending decision as an editable order file, for `pbem orders` (engine/fleets/text.py)."""
        return text.draft(state, game)

    def result(self, state: State) -> str | None:
        return state.result

    def table_view(self, state: State, events: list[Any]) -> dict[str, Any]:
        """The table alone (engine/fleets/view.py, templates/fleets/table.svg.j2); reports use `view`."""
        return views.table_view(state, events)

    def view(self, state: State, events: list[Any], before: State | None = None,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
        """The report contract's plain data (engine/fleets/report_view.py): table, sheets, events, every die."""
        return report_view.view(state, events, before, options)

    def turn(self, state: State) -> int:
        return report_view.turn(state)

    def legal_kinds(self, state: State) -> list[str]:
        """The kinds of order that may be written now, with their bounds (beyond the listed examples)."""
        return legal_orders.kinds(state)

    def play_options(self, state: State, picks: list[str]) -> dict[str, Any]:
        """The pending decision as things to click, after the click path `picks` (engine/fleets/clicks.py)."""
        from engine.fleets import clicks
        return clicks.play_options(state, picks)

    def explain(self, state: State, subject: str | None) -> tuple[dict[str, Any], str]:
        """One element's card (the board's hover and click; engine/fleets/clicks.py)."""
        from engine.fleets import clicks
        return clicks.explain(state, subject)

    def choose(self, state: State, side: str, rng: Any) -> Any:
        return to_json(agent.choose(state, rng))


RULESET = Fleets()
