"""Every event and state of a fleet battle in words: nothing falls back to a raw dump."""

from __future__ import annotations

import random

from engine.fleets import events as ev
from engine.fleets.ruleset import RULESET
from tests.engine.fleets.test_random_play import SeededDice


def test_every_event_kind_met_in_games_is_told_in_words() -> None:
    seen: set[type] = set()
    for name, seed in (("open-sea", 1), ("salamis-480", 6), ("helsingborg-1362", 2), ("actium-31", 3)):
        state = RULESET.new_game(RULESET.builtin_scenario(name) or b"", RULESET.default_rules_data(), {})
        rng, dice = random.Random(seed), SeededDice(seed)
        while not RULESET.pending(state).finished:
            state, new = RULESET.apply(state, RULESET.choose(state, RULESET.pending(state).side or "", rng), dice) \
                if not RULESET.pending(state).automatic else (state, [])
            state, more = RULESET.advance(state, dice)
            for event in new + more:
                text = RULESET.describe_event(event, state)
                assert text and not text.startswith(type(event).__name__ + "("), text
                seen.add(type(event))
            assert RULESET.describe(state)
    kinds = {c for c in vars(ev).values() if isinstance(c, type) and issubclass(c, ev.Event) and c is not ev.Event}
    missing = kinds - seen
    # every kind appears in these four games except those that need rarer luck
    assert missing <= {ev.FollowedUp, ev.Turned}, missing
    assert RULESET.describe_event(ev.FollowedUp("H3")) == "H3 follows up"
    assert RULESET.describe_event(ev.Turned("H3", "D4")) == "H3 turns to face D4"
