"""The scenario book and 10.0 Tournament Rules: battle files, set-up and deployment, the secret choices
the battles ask for, and every battle's special rules.

A special rule (scenario `[[special]]`) is played by functions registered with the hook interface
(engine.war_galley.turn.hooks) when their module is imported. `MODULES` names that module for every
rule, so a game imports the modules of the rules it plays and no other (`load`): a Tauris game never
reads Actium's code. A new battle's rule: a function with `@hook(point, name)` in the battle's module,
and its name here (docs/architecture.md); tests/engine/war_galley/battles/test_registry.py checks that
each module registers exactly the rules named for it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from engine.errors import RulesDataError

# Rule name -> the module of this package that registers its hooks. Rules of one battle live in its
# module (actium, drepanum, lade); rules several battles share in shared, opening and transports.
MODULES: dict[str, str] = {
    "anchored": "actium", "leaders_survive_vp": "actium", "treasure_ship": "actium",
    "line_astern_command": "drepanum", "run_aground_vp": "drepanum",
    "treachery": "lade",
    "approach_phase": "opening", "in_command_first_turn": "opening", "pre_battle_move": "opening",
    "boarding_transports": "transports", "ignore_transports": "transports", "towed_transports": "transports",
    "transport_command_limit": "transports", "transport_squadron": "transports", "transport_vp": "transports",
    "transports_no_manpower": "transports", "transports_restricted": "transports",
    "all_towers": "shared", "commander_restricted": "shared", "corvus": "shared", "exit_vp": "shared",
    "exited_no_vp": "shared", "flame_capable": "shared", "flame_throwers": "shared", "harpax": "shared",
    "keep_squadrons": "shared", "lembi_commanders": "shared", "minor_victory_most_vp": "shared",
    "no_admiral": "shared", "no_command_ship": "shared", "no_fire": "shared",
    "no_max_speed_first_turn": "shared", "no_max_speed_until": "shared", "pestilence": "shared",
    "port_start": "shared", "sails_up_start": "shared", "separate_fleets": "shared",
    "towers_optional": "shared", "wet_fire": "shared",
}


def load(names: Iterable[str]) -> None:
    """Import the module of each named rule, registering its hooks; a rule no module plays is refused
    (a game must never be played without one of its rules)."""
    for name in names:
        module = MODULES.get(name)
        if module is None:
            raise RulesDataError(f"special rule {name!r}: no battle of this engine plays it "
                                 f"(known: {', '.join(sorted(MODULES))})")
        importlib.import_module(f"{__name__}.{module}")
