"""War Galley's rules version 2 (issue 27) beside version 1: a new game pins 2, a recorded one is judged by 1."""

from __future__ import annotations

from pathlib import Path

from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.ruleset import RULESET, WarGalley
from engine.war_galley.turn.state import RULES_VERSION
from pbem.game import store, writing
from pbem.game.folder import write_atomic
from pbem.signed import identity as ids
from pbem.signed.movefile import file_name

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"


def test_the_release_judges_both_and_a_new_game_pins_2(tmp_path: Path) -> None:
    assert RULESET.version == "2" and RULESET.versions == ("1", "2")
    host = ids.generate("host", tmp_path / "keys-host")
    invite = writing.make_invite(host, "Alice", RULESET, "tauris", "caesarians", {}, chain_length=64)
    assert invite.body.ruleset_version == "2"
    folder = tmp_path / "game"
    folder.mkdir()
    write_atomic(folder / file_name(0), invite.raw)
    guest = ids.generate("guest", tmp_path / "keys-guest")
    write_atomic(folder / file_name(1), writing.make_accept(store.load(folder), guest, "Bob", 64).raw)
    game = store.load(folder)
    assert game.ruleset.version == "2" and game.initial_state.rules_version == 2


def test_the_recorded_tauris_game_is_judged_by_version_1_and_its_states_say_no_version() -> None:
    game = store.load(EXAMPLES / "tauris-game")
    assert game.ruleset.version == "1" and isinstance(game.ruleset, WarGalley) and game.ruleset is not RULESET
    assert RULES_VERSION not in dict(game.initial_state.options) and game.initial_state.rules_version == 1


def test_a_rules_change_from_1_to_2_reads_the_state_again_as_version_2() -> None:
    data = RULESET.builtin_scenario("tauris")
    assert data is not None
    old = RULESET.at_version("1")
    state = old.new_game(data, default_rules_data(), {})
    assert old.state_bytes(state) == old.state_bytes(old.load_state(old.state_bytes(state), default_rules_data()))
    rebound = RULESET.rebind(state, default_rules_data(), default_rules_data())
    assert rebound.rules_version == 2 and dict(rebound.options)[RULES_VERSION] == "2"
