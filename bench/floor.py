"""The floor under `pbem verify`: what any check of a game must do, and nothing more.

    python bench/floor.py GAME_FOLDER

Reads every file, parses it, checks its Ed25519 signature with its author's
key and its hash link to the file before. No rules, no dice, no reveals.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pbem.game import folder as folders
from pbem.signed import identity as ids
from pbem.signed import movefile


def floor(folder: Path) -> int:
    keys: dict[str, str] = {}
    previous: movefile.SignedFile | None = None
    paths = folders.game_files(folder)
    for path in paths:
        signed = movefile.parse(folders.read(path), str(path))
        body = signed.body
        if isinstance(body, movefile.Invite):
            keys["host"] = body.host.key
        elif isinstance(body, movefile.Accept):
            keys["guest"] = body.guest.key
        ids.verify(keys[body.author], signed.signature, signed.body_bytes, str(path))
        if previous is not None and body.prev != previous.hash_hex:
            raise SystemExit(f"{path}: broken link")
        previous = signed
    return len(paths)


if __name__ == "__main__":
    print(f"floor: {floor(Path(sys.argv[1]))} files read, signatures and links checked")
