"""War Galley behind the protocol's ruleset contract (pbem/game/ruleset.py), without importing pbem.

Decisions cross the boundary as JSON values (engine.war_galley.turn.decisions' tagged
form); states are `engine.war_galley.turn.state.GameState`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec

from engine import adapter
from engine.adapter import Adapter, ScenarioInfo
from engine.errors import IllegalOrder, RulesDataError, RulesError
from engine.war_galley import battles
from engine.war_galley.battles import choices, secrets, tournament
from engine.war_galley.battles.scenario_files import (
    BATTLES_DIR,
    SCENARIOS_DIR,
    builtin_commanders,
    builtin_manifest,
    builtin_scenarios,
    game_scenario,
    parse_scenario,
)
from engine.war_galley.battles.scenario_layout import side_galleys
from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys import rulesdata
from engine.war_galley.play import commands, describe, notation, reactions_text
from engine.war_galley.play import dispatch as play

# The legal-action generator, the demo player, the board, draft and explanation are imported by
# the methods that use them: a `status` or `move` needs none of them (issue 16, start-up cost).
from engine.war_galley.turn import references, sequence
from engine.war_galley.turn.decisions import from_json, to_json
from engine.war_galley.turn.state import RULES_VERSION, GameState
from engine.war_galley.turn.state_bytes import decode_state, encode_state

TOURNAMENT = SCENARIOS_DIR / "tournament.toml"


# Version 2 (issue 27): a multi-admiral fleet's lost admiral is no longer one (9.2, Ecnomus' play note),
# Firepots with a Defensive Reaction Ram (8.53, 6.7), no Pass-Through off the map (7.25), Fatigue rolled
# after each galley (6.42). Version 1's states carry no version; a later one's carry it as an option
# (engine.war_galley.turn.state.RULES_VERSION), which the rules read.
VERSIONS = ("1", "2")


class WarGalley(Adapter):
    name = "war-galley"
    versions = VERSIONS  # every version judged here (engine.adapter.Adapter.at_version)
    data_folder = "war_galley"  # scenarios/war_galley/pinned/: every rules data and scenario shipped, by hash
    illegal_errors: tuple[type[Exception], ...] = (RulesError,)

    def __init__(self, version: str = VERSIONS[-1]) -> None:
        self.version = version

    def at_version(self, version: str) -> WarGalley:
        if version not in VERSIONS:
            raise RulesError(f"War Galley {self.version} does not judge version {version}")
        return self if version == self.version else _AT[version]

    def judging(self, state: GameState) -> GameState:
        """`state` to be judged by this version: its options say the version (version 1 says none, so its
        states keep the bytes they always had). new_game, load_state and so a rules change (rebind) stamp it."""
        options = tuple(o for o in state.options if o[0] != RULES_VERSION)
        if self.version != "1":
            options = (*options, (RULES_VERSION, self.version))
        return state if options == state.options else msgspec.structs.replace(state, options=options)

    # --- data ---
    def default_rules_data(self) -> bytes:
        return rulesdata.default_rules_data()

    def scenarios(self) -> list[ScenarioInfo]:
        """The book's battles with year, sides, galleys a side, difficulty and the book's order for
        beginners, then tournament play (10.0)."""
        out = []
        for s in builtin_scenarios():
            sides = (s.sides[0].key, s.sides[1].key)
            sizes = " v ".join(str(len(side_galleys(side))) for side in s.sides)
            rank = f", beginners: {s.beginner_rank}" if s.beginner_rank else ""
            summary = (f"{s.year_bc} B.C., {s.sides[0].name} v {s.sides[1].name}, {sizes} galleys, "
                       f"difficulty {s.difficulty:g}{rank}")
            out.append(ScenarioInfo(s.key, f"{s.name}: {s.title}", sides, summary))
        spec = tournament.load(TOURNAMENT.read_bytes(), str(TOURNAMENT))
        out.append(ScenarioInfo(spec.key, f"{spec.name}: {spec.title}", (spec.sides[0].key, spec.sides[1].key),
                                   f"fleets built to {'/'.join(str(b.points) for b in spec.fleet_building.budgets)} "
                                   "points (option budget), committed in secret"))
        return out

    def builtin_scenario(self, name: str) -> bytes | None:
        if name == "tournament":
            return TOURNAMENT.read_bytes()
        path = BATTLES_DIR / f"{name}.toml"
        return path.read_bytes() if path.is_file() else None

    def load_scenario(self, name_or_path: str) -> tuple[str, bytes]:
        data = self.builtin_scenario(name_or_path)
        if data is not None:
            return name_or_path, data
        path = Path(name_or_path)
        if not path.is_file():
            names = ", ".join(s.key for s in builtin_scenarios())
            raise RulesDataError(f"no scenario {name_or_path!r} (built in: {names})")
        data = path.read_bytes()
        if tournament.is_tournament(data):
            return tournament.load(data, str(path)).key, data
        return parse_scenario(data, str(path), builtin_manifest(), builtin_commanders()).key, data

    def sides(self, scenario_data: bytes, rules_data: bytes) -> tuple[str, str]:
        return _sides(scenario_data, rules_data)

    def commands(self, scenario_data: bytes, rules_data: bytes) -> dict[str, list[str]]:
        """Each side's Admiral and Squadron Commanders by name, its Admiral first (engine.war_galley.play.commands)."""
        return {side: list(names) for side, names in _commands(scenario_data, rules_data).items()}

    # --- the contract ---
    def new_game(self, scenario_data: bytes, rules_data: bytes, options: dict[str, Any]) -> GameState:
        return self.judging(new_game(scenario_data, rules_data, options))

    def pending(self, state: GameState) -> adapter.Pending:
        return play.pending(state)

    def legal(self, state: GameState) -> list[Any]:
        if choices.wanted(state) is not None:
            return list(choices.listed(state))
        from engine.war_galley.play import legal as legal_actions

        return [to_json(d) for d in legal_actions.legal(state)]

    def apply(self, state: GameState, decision: Any, dice: Any) -> tuple[GameState, list[Any]]:
        if secrets.is_secret(decision):  # commit/open (docs/protocol.md): checked by the rules that asked
            if secrets.is_unsealed(decision):
                raise IllegalOrder("protocol", f"write it as the order line `{self.format_order(decision)}`: "
                                   "pbem seals it with your key")
            try:
                return choices.apply(state, decision)
            except ValueError as exc:  # not the shape of a commitment or an opening
                raise IllegalOrder("protocol", str(exc)) from None
        want = choices.wanted(state)
        if want is not None:
            if isinstance(decision, dict) and decision.get("kind") in ("concede", "propose-halt", "accept-halt"):
                return play.apply(state, self._decode(decision, state), dice)
            raise IllegalOrder(want.rule, f"{want.prompt}")
        return play.apply(state, self._decode(decision, state), dice)

    @staticmethod
    def _decode(decision: Any, state: GameState) -> Any:
        """The decision's JSON as a War Galley decision naming only what is in the battle, or IllegalOrder."""
        decoded = from_json(decision)
        references.check(decoded, state)
        return decoded

    def advance(self, state: GameState, dice: Any) -> tuple[GameState, list[Any]]:
        return sequence.advance(state, dice)

    def state_bytes(self, state: GameState) -> bytes:
        return encode_state(state)

    def load_state(self, data: bytes, rules_data: bytes) -> GameState:
        """The state whose `state_bytes` are `data`, in a game pinning `rules_data` (for pbem's state cache)."""
        state = decode_state(data, rulesdata.load_rules_data(rules_data))
        battles.load(name for name, _ in state.extra.rules)  # the rules it plays, as new_game loads them
        return self.judging(state)

    def parse_order(self, text: str, state: GameState) -> Any:
        side = play.pending(state).side or ""
        return to_json(notation.parse_decision(text, side, state.board.map))

    def format_order(self, decision: Any) -> str:
        if secrets.is_secret(decision):
            if "commit" in decision:
                value = decision.get("value")
                return f"commit {decision['commit']}" + (f": {value}" if value is not None else " (sealed)")
            value = decision.get("value")
            return f"open {decision['open']}" + (f": {value}" if value is not None else "")
        return notation.format_decision(from_json(decision))

    def describe(self, state: GameState) -> str:
        """The phase, VP and galleys, then each side's standing reactions and standing orders
        (engine.war_galley.play.reactions_text)."""
        orders = reactions_text.standing_summary(state)
        text = f"{describe.state_summary(state)}; {reactions_text.reactions_summary(state)}"
        return f"{text}; {orders}" if orders else text

    def describe_event(self, event: Any, state: GameState | None = None) -> str:
        return describe.event_words(event, state.board.map if state is not None else None)

    def explain(self, state: GameState, subject: str | None) -> tuple[Any, str]:
        """(JSON data, text): a galley's ratings, markers, MP, end positions and targets (engine.war_galley.play.explain);
        with no subject, every galley's place (engine.war_galley.play.board_text)."""
        from engine.war_galley.play import explain

        return explain.explain(state, subject)

    def legal_notes(self, state: GameState) -> list[str]:
        """Lines `pbem legal GAME` prints after the decisions: every galley that can attack now, with the
        roll it needs (engine.war_galley.play.attacks)."""
        if choices.wanted(state) is not None:
            return []
        from engine.war_galley.play import attacks

        return attacks.attack_lines(state)

    def board(self, state: GameState) -> str:
        from engine.war_galley.play import board_text

        return board_text.board_text(state)

    def draft(self, state: GameState, game: str = "GAME") -> str:
        """The pending decision as an editable order file, the options as comments (engine.war_galley.play.draft)."""
        from engine.war_galley.play import draft
        from engine.war_galley.play import legal as legal_actions
        from engine.war_galley.turn.decisions import Reactions

        if choices.wanted(state) is not None:
            return draft.draft(state, [self.format_order(d) for d in self.legal(state)], game)
        decisions = draft.preferred(legal_actions.legal(state))
        # At the set-up the standing reactions are asked for (6.5): offered as a line beside the deployment.
        unordered = state.turn == 0 and play.pending(state).side not in dict(state.reactions)
        offer = next((d for d in decisions if isinstance(d, Reactions)), None) if unordered else None
        options = [notation.format_decision(d) for d in decisions if d is not offer]
        return draft.draft(state, options, game, notation.format_decision(offer) if offer is not None else "")

    def result(self, state: GameState) -> str | None:
        return state.result.text if state.result is not None else None

    def play_options(self, state: GameState, picks: list[str]) -> dict[str, Any]:
        """The pending decision as things to click, after the click path `picks` (engine.war_galley.play.clicks)."""
        from engine.war_galley.play import clicks
        return clicks.play_options(state, picks)

    # --- team games (issue 26): who holds what ---
    def commands_of(self, state: GameState, decision: Any) -> list[str]:
        """The commands a decision concerns, [] for the whole side's (engine.war_galley.play.commands)."""
        return commands.commands_of(state, decision)

    def awaited_commands(self, state: GameState) -> list[str]:
        """The commands the pending decision may concern, [] for a side-wide one or nobody's."""
        return commands.awaited_commands(state)

    # --- reports (docs/reports.md) ---
    report_templates = "war_galley"  # templates/war_galley/

    def view(self, state: GameState, events: list[Any], before: GameState | None = None,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
        from engine.war_galley.play import view

        return view.view(state, events, before, options)

    def turn(self, state: GameState) -> int:
        """The game turn (3.1; 0 during deployment): pbem counts files per turn with it."""
        return state.turn

    # --- for `pbem demo` ---
    demo_scenario = "tauris"  # small, and one of the book's suggestions for beginners

    def choose(self, state: GameState, side: str, rng: Any, shortcuts: bool = True) -> Any:
        """The demo player's decision (engine.war_galley.play.agent); a secret choice as its unsealed order line.
        `shortcuts=False`: a player who decides after every die (for counting what they save)."""
        if choices.wanted(state) is not None:
            return rng.choice(choices.listed(state))
        from engine.war_galley.play import agent

        return agent.choose_json(state, side, rng, shortcuts)


@lru_cache(maxsize=8)  # asked of the invitation and again of the acceptance: each parse checks the whole battle
def _sides(scenario_data: bytes, rules_data: bytes) -> tuple[str, str]:
    if tournament.is_tournament(scenario_data):
        spec = tournament.load(scenario_data)
        return spec.sides[0].key, spec.sides[1].key
    s = game_scenario(scenario_data, rules_data)
    return s.sides[0].key, s.sides[1].key


@lru_cache(maxsize=8)  # asked of every set-up file that names seats
def _commands(scenario_data: bytes, rules_data: bytes) -> dict[str, tuple[str, ...]]:
    return {side: tuple(names) for side, names in commands.commands(scenario_data, rules_data).items()}


RULESET = WarGalley()
_AT = {version: RULESET if version == RULESET.version else WarGalley(version) for version in VERSIONS}
