"""Games for the report tests, played through the real protocol (as `pbem demo` plays them).

Two identities, two key folders, two game folders; each file is written by its
author and received by the other. `files` bounds the game's length so a test
can stop early in a long battle (Actium).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable

from pbem.exchange import intake
from pbem.signed import identity as ids
from pbem.game import session
from pbem.game import store
from pbem.game import writing
from pbem.game import ruleset as rulesets
from pbem.cli.demo import choose_orders
from pbem.game.ruleset import Pending


def play(root: Path, ruleset_name: str, scenario: str, files: int, seed: int = 1,
         names: tuple[str, str] = ("Alice", "Bob"), note: str = "",
         until: Callable[[Pending], bool] | None = None) -> Path:
    """Play up to `files` files of `scenario`; return the host's game folder.

    `until`: past `files`, go on until the rules wait on the next author's side with a decision
    `until` accepts (who decides what after a few files depends on the dice, from the test's keys: PBEM_TEST_SEED).
    """
    ruleset = rulesets.find(ruleset_name)
    sides = ruleset.sides(ruleset.load_scenario(scenario)[1], ruleset.default_rules_data())
    keys = {"host": root / "keys" / "host", "guest": root / "keys" / "guest"}
    folders = {"host": root / "host", "guest": root / "guest"}
    me = {role: ids.generate(role, keys[role]) for role in keys}
    invite = writing.make_invite(me["host"], names[0], ruleset, scenario, sides[0], {})
    invite_path = session.start(folders["host"], invite)
    _, accept_path = session.accept(intake.one_file(invite_path), folders["guest"], me["guest"], names[1], 10_000)
    session.receive(folders["host"], intake.incoming(accept_path))
    chooser = random.Random(seed)
    role = "host"
    while True:
        game = store.load(folders[role])
        if game.finished() or (len(game.files) >= files and until is None):
            break
        view = writing.outlook(game, me[role])
        player = game.player(role)
        assert player is not None
        if len(game.files) >= files and view.pending.side == player.side and until(view.pending):
            break
        orders = choose_orders(ruleset, view.resolution.state, player.side, chooser)
        path, _, _ = session.move(folders[role], me[role], orders, note, keys[role])
        other = "guest" if role == "host" else "host"
        session.receive(folders[other], intake.incoming(path))
        role = other
    return folders["host"]
