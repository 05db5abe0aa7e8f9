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
and file the user alone can write, and only printed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys

_ASKS = ([], ["--help"])  # the command lines the list of commands answers


def asks_for_list(args: list[str]) -> bool:
    """`pbem` alone or `pbem --help`: the command line wants the list of commands."""
    return args in _ASKS


def _folder() -> str | None:
    # os.path, not pathlib: importing pathlib would cost this fast path a third of its time
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return None if root.startswith("~") else os.path.join(root, "pbem", "help")  # "~": no home to be found


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


def _private(path: str, is_dir: bool) -> bool:
    try:
        stat = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    kind_ok = (stat.st_mode & 0o170000) == (0o040000 if is_dir else 0o100000)
    return kind_ok and stat.st_uid == os.getuid() and not stat.st_mode & 0o022


def kept() -> str | None:
    """The help text kept for this code and terminal, or None."""
    where, key = _folder(), _key()
    if where is None or key is None or not _private(where, True) or not _private(os.path.join(where, key), False):
        return None
    try:
        with open(os.path.join(where, key), "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    text, _, checksum = data.rpartition(b"\n#")
    if hashlib.sha256(text).hexdigest().encode() != checksum:
        return None  # damaged or cut short: typer prints it afresh
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError:
        return None


def keep(text: str) -> None:
    """Keep the text typer printed, atomically; a failure only costs the next `pbem --help` its imports."""
    where, key = _folder(), _key()
    if where is None or key is None:
        return
    import tempfile

    temporary = None
    try:
        os.makedirs(where, mode=0o700, exist_ok=True)
        if not _private(where, True):
            return
        data = text.encode("utf-8")
        handle = tempfile.NamedTemporaryFile(dir=where, prefix=f".{key[:16]}.", suffix=".tmp", delete=False)
        temporary = handle.name
        with handle:
            handle.write(data + b"\n#" + hashlib.sha256(data).hexdigest().encode())
        os.replace(temporary, os.path.join(where, key))
        temporary = None
    except OSError:
        pass
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
