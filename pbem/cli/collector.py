"""The cyclic garbage collector as a pbem command wants it (issue 16: start-up cost)."""

from __future__ import annotations

import atexit
import gc

# Young objects a cyclic collection waits for (Python's default: 700). A command makes a few hundred
# thousand objects that live until it ends (its modules, the game's files, the state): by default each
# is traversed by two or three collections that find next to nothing (a 2,000-file replay makes no
# garbage cycles worth the name: its peak memory is the same with the collector off).
_YOUNG = 100_000
_settled = False


def settle() -> None:
    """Collect cycles rarely, and not at exit: at Actium's size the collector's passes cost a `status`
    ~40 ms and the interpreter's last full collection at exit ~40 ms more, over objects the end of the
    process frees anyway. Still bounded: a long run (watch, demo, verify) collects every 100,000 objects."""
    global _settled
    if _settled:
        return
    _settled = True
    gc.set_threshold(_YOUNG, 50, 100)
    atexit.register(gc.freeze)  # frozen objects are out of the final collection's reach
