"""`pbem --help` kept as text between runs (issue 16: answered in about the time Python takes to start).

Printing the list of commands needs typer and click, about 60 ms of imports
against a 20 ms interpreter start, to print text that changes only when the
command line's code does. So the text typer printed is kept in the user's
cache folder ($XDG_CACHE_HOME/pbem/help, else ~/.cache/pbem/help), named by a
key over everything it depends on: the bytes of every module that registers
commands or builds the list (pbem/cli*.py), the bytes of typer's own
`__init__.py` (its version), the Python version, the program name, the
terminal's width (click wraps to it) and the environment typer reads for its
formatting. Any other key finds nothing and typer prints the help afresh,
then keeps it. The text is plain text, never code, read only from a folder
and file the user alone can write, checksummed (engine.usercache), and only
printed.
"""

from __future__ import annotations

import hashlib
import os
import sys

from engine import usercache

_ASKS = ([], ["--help"])  # the command lines the list of commands answers


def asks_for_list(args: list[str]) -> bool:
    """`pbem` alone or `pbem --help`: the command line wants the list of commands."""
    return args in _ASKS


def _key() -> str | None:
    """The name the text is kept under, or None if a source cannot be read (then nothing is kept)."""
    import importlib.util

    digest = hashlib.sha256(f"{sys.version}\n{os.path.basename(sys.argv[0])}\n".encode())
    columns = os.environ.get("COLUMNS", "")
    try:
        columns = columns or str(os.get_terminal_size(sys.__stdout__.fileno()).columns)  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        pass  # not a terminal: click falls back to COLUMNS or 80
    digest.update(f"{columns}\n{os.environ.get('TYPER_USE_RICH', '')}\n{os.environ.get('TERM', '')}\n".encode())
    here = os.path.dirname(__file__)
    spec = importlib.util.find_spec("typer")
    if spec is None or spec.origin is None:
        return None
    sources = sorted(os.path.join(here, name) for name in os.listdir(here) if name.startswith("cli") and name.endswith(".py"))
    try:
        for source in [*sources, spec.origin]:
            with open(source, "rb") as handle:
                digest.update(source.encode() + b"\n" + hashlib.sha256(handle.read()).digest())
    except OSError:
        return None
    return digest.hexdigest()


def kept() -> str | None:
    """The help text kept for this code and terminal, or None."""
    where, key = usercache.folder("help"), _key()
    payload = usercache.load(where, key) if where is not None and key is not None else None
    if payload is None:
        return None  # none, damaged, cut short or shared: typer prints it afresh
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        return None


def keep(text: str) -> None:
    """Keep the text typer printed; a failure only costs the next `pbem --help` its imports."""
    where, key = usercache.folder("help"), _key()
    if where is not None and key is not None:
        usercache.store(where, key, text.encode("utf-8"))
