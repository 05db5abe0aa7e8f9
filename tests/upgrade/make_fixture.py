"""Make the fixture of tests/upgrade/test_upgrade.py: a War Galley game stopped mid-game, by an older pbem.

Run with the interpreter of a checkout of the commit named in README.md (its own venv), so that the
files are written by that release's code exactly as players of it wrote them:

    cd OLD_CHECKOUT && .venv/bin/python /path/to/tests/upgrade/make_fixture.py OUT_FOLDER FILES

It plays Tauris (both sides by the ruleset's demo player, seeded) through the referee, the way
`pbem demo` does, and stops after FILES files: OUT_FOLDER/game (the files), keys-host, keys-guest.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from pbem.cli import demo
from pbem.signed import identity as ids
from pbem.game import referee
from pbem.game import session
from pbem.game import store
from pbem.game import writing
from pbem.game import ruleset as rulesets
from pbem.game.folder import write_atomic
from pbem.signed.movefile import file_name

CHAIN = 300


def main(out: Path, files: int) -> None:
    ruleset = rulesets.find("war-galley")
    game_folder = out / "game"
    game_folder.mkdir(parents=True)
    host = ids.generate("host", out / "keys-host")
    guest = ids.generate("guest", out / "keys-guest")
    sides = ruleset.sides(ruleset.builtin_scenario("tauris") or b"", ruleset.default_rules_data())
    invite = writing.make_invite(host, "Octavian", ruleset, "tauris", sides[0], {}, chain_length=CHAIN)
    write_atomic(game_folder / file_name(0), invite.raw)
    game = store.load(game_folder)
    accept = writing.make_accept(game, guest, "Antony", CHAIN)
    write_atomic(game_folder / file_name(1), accept.raw)
    chooser = random.Random(22)
    me = {"host": host, "guest": guest}
    while True:
        game = store.load(game_folder)
        if len(game.files) >= files or game.finished():
            break
        role = game.next_author
        view = writing.outlook(game, me[role])
        player = game.player(role)
        assert player is not None
        lines: list[str] = []
        if not view.pending.finished and view.pending.side == player.side:
            lines = demo.choose_orders(ruleset, view.resolution.state, player.side, chooser)
        keys = out / f"keys-{role}"
        session.move(game_folder, me[role], lines, "", keys)
    print(f"{len(game.files)} files, finished: {game.finished()}, rules {game.setup.ruleset.version} "
          f"data {referee.sha256_hex(game.setup.rules_data)[:16]}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
