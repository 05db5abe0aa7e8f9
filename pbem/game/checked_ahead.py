"""Files checked ahead of a replay, on the second core (issue 16: verify near the floor).

A replay parses each file strictly (canonical JSON, every field's format:
pbem.signed.movefile.parse, about 25 us), checks its Ed25519 signature (about
60 us), and then runs its rules (several times both). Neither check needs
anything from the rules: once the set-up files name both keys, each later
file's parse and signature are functions of its own bytes. So a forked child
makes both, in file order, while the replay runs the rules, and writes one
byte per file down a pipe: 1 if the file parses and its signature verifies
with the key of its author, 0 otherwise. Of a file the child found good the
replay reads the body without the canonical checks (movefile.parse_known:
for bytes `parse` accepts, the same value) and skips the signature. A 0 is
only a hint: the replay parses and checks that file itself and fails with
the error it would have given anyway, so errors, and their order, are
exactly a sequential replay's. The child is this process forked, running
this code on bytes this process already holds: nothing it sends is trusted
that the process would not compute the same way itself.

Only where `os.fork` exists and the game is long enough for the second core
to pay for the fork; elsewhere every signature is checked in line.

Kept (issue 23) because a target is missed without it: `verify` of 2,000
Actium files 1.38 s, 3.65x the floor, without; 1.07 s, 2.92x, with (target 3x;
5 paired whole-process runs). It gives nothing when no core is free.
"""

from __future__ import annotations

import base64
import contextlib
import gc
import os
import signal
import sys

from pbem.signed.movefile import author_of, parse

AHEAD_FROM = 200  # files: below this, forking costs more than the checks it takes off the replay
_BATCH = 32  # verdicts written per pipe write


class CheckedAhead:
    """The verdicts of a child that parses files `first`.. of `raws` and checks their signatures."""

    def __init__(self, raws: list[bytes], first: int, keys: dict[str, str]) -> None:
        self._verdicts = bytearray()
        self._first = first
        self._pid = 0
        self._fd = -1
        if not hasattr(os, "fork") or len(raws) - first < AHEAD_FROM:
            return
        reading, writing = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            pid = os.fork()
        except OSError:
            os.close(reading)
            os.close(writing)
            return
        if pid == 0:  # the child: check, write, and leave without running anything of the parent's
            os.close(reading)
            gc.disable()  # a collection would walk, and so copy, every page of the parent's heap
            code = 0
            try:
                _check(raws, first, keys, writing)
            except BaseException:
                code = 1
            os._exit(code)
        os.close(writing)
        self._pid, self._fd = pid, reading

    def verified(self, seq: int) -> bool:
        """Did the child find file `seq` well formed and its signature good? False if it did not, or has
        gone: parse and check it in line then."""
        index = seq - self._first
        while index >= len(self._verdicts) and self._fd >= 0:
            chunk = os.read(self._fd, 65536)
            if not chunk:
                self.close()
                break
            self._verdicts += chunk
        return 0 <= index < len(self._verdicts) and self._verdicts[index] == 1

    def close(self) -> None:
        """Stop the child (if the replay ended early) and reap it."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if self._pid:
            with contextlib.suppress(OSError):
                os.kill(self._pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(self._pid, 0)
            self._pid = 0

    def __enter__(self) -> CheckedAhead:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _check(raws: list[bytes], first: int, keys: dict[str, str], out: int) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    public = {role: Ed25519PublicKey.from_public_bytes(base64.b64decode(key)) for role, key in keys.items()}
    batch = bytearray()
    for seq in range(first, len(raws)):
        verdict = 0
        try:
            signed = parse(raws[seq], "")
            public[author_of(seq)].verify(signed.signature, signed.body_bytes)
            verdict = 1
        except Exception:  # noqa: BLE001 - MalformedFile, InvalidSignature or anything else: verdict 0, and the
            pass  # replay parses and checks this file itself and names what is wrong
        batch.append(verdict)
        if len(batch) == _BATCH:
            os.write(out, batch)
            batch.clear()
    if batch:
        os.write(out, batch)
    os.close(out)
