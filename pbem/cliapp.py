"""pbem's command-line framework: commands declared as typed functions, parsed with argparse.

Declared the way typer declares them (`Annotated[Path, Argument(help=...)]`,
`Annotated[Optional[str], Option("--key", envvar=...)]`), so a command reads
the same; typer itself is not used because it builds pydantic validators for
every parameter at every start, which cost more than a whole `pbem status`
(issue 16). A command's signature is read only when that command runs or
prints its help: `pbem --help` reads docstrings alone.

Types: str, int, bool, Path, Optional[...] of them, list[...] of them (an
argument taking any number of values, or an option given again and again).
A bool option with its own name (`Option("--json")`) is a flag; without one it
is `--name/--no-name`. Bad usage raises pbem.errors.UsageError (exit 2) with
one line, as every other bad input does.

Metadata objects with typer's attribute names (param_decls, help, envvar,
metavar, show_default) are read too, so a command written for typer still runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import UsageError


class Argument:
    """A positional parameter."""

    def __init__(self, *, help: str = "", metavar: str | None = None) -> None:
        self.param_decls: tuple[str, ...] = ()
        self.help, self.metavar, self.envvar, self.show_default = help, metavar, None, True


class Option:
    """A named parameter: `Option("--keys", help=...)`; with no name, --PARAM-NAME."""

    def __init__(self, *param_decls: str, help: str = "", envvar: str | None = None,
                 show_default: bool = True, metavar: str | None = None) -> None:
        self.param_decls = param_decls
        self.help, self.envvar, self.show_default, self.metavar = help, envvar, show_default, metavar


class Exit(Exception):
    """End the command with this exit status (after it has printed what it had to say)."""

    def __init__(self, code: int = 0) -> None:
        super().__init__(code)
        self.exit_code = code


def echo(message: object = "", err: bool = False, nl: bool = True) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(f"{message}\n" if nl else f"{message}")
    stream.flush()


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse would print usage and exit; we say one line
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


@dataclass
class _Command:
    name: str
    function: Callable[..., Any]

    @property
    def summary(self) -> str:
        doc = (self.function.__doc__ or "").strip()
        return " ".join(doc.split("\n\n")[0].split())  # the first paragraph


class App:
    """The `pbem` program: named commands, each a typed function."""

    def __init__(self, name: str, help: str) -> None:
        self.name, self.help = name, help
        self._commands: dict[str, _Command] = {}

    def command(self, name: str | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def register(function: Callable[..., Any]) -> Callable[..., Any]:
            command = name or function.__name__.replace("_", "-")
            self._commands[command] = _Command(command, function)
            return function

        return register

    def usage(self) -> str:
        width = max(len(n) for n in self._commands)
        lines = [f"usage: {self.name} COMMAND [ARGS]...", "", self.help, "", "commands:"]
        lines += [f"  {n:<{width}}  {c.summary}" for n, c in self._commands.items()]
        lines += ["", f"{self.name} COMMAND --help tells more of each."]
        return "\n".join(lines)

    def __call__(self, args: Sequence[str] | None = None) -> Any:
        """Run the command `args` name (default: sys.argv); returns what it returns."""
        argv = list(sys.argv[1:] if args is None else args)
        if not argv or argv[0] in ("-h", "--help"):
            echo(self.usage())
            if not argv:
                raise Exit(2)
            return None
        name, rest = argv[0], argv[1:]
        command = self._commands.get(name)
        if command is None:
            raise UsageError(f"no such command {name!r} (see {self.name} --help)")
        function = command.function
        parser, readers = _parser(f"{self.name} {name}", function)
        try:
            parsed = vars(parser.parse_intermixed_args(rest))
        except SystemExit as exc:  # --help printed: argparse exits 0
            raise Exit(int(exc.code or 0)) from None
        try:
            return function(**{dest: read(parsed[dest]) for dest, read in readers.items()})
        except Exception as exc:  # a command written for typer ends with typer's own Exit
            if type(exc).__name__ == "Exit" and isinstance(getattr(exc, "exit_code", None), int):
                raise Exit(exc.exit_code) from None  # type: ignore[attr-defined]
            raise


# ----- reading a function's signature -----------------------------------------------


def _parser(prog: str, function: Callable[..., Any]) -> tuple[_Parser, dict[str, Callable[[Any], Any]]]:
    import inspect
    import typing

    doc = inspect.getdoc(function) or ""
    parser = _Parser(prog=prog, description=doc, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter)
    hints = typing.get_type_hints(function, include_extras=True)
    readers: dict[str, Callable[[Any], Any]] = {}
    for param in inspect.signature(function).parameters.values():
        annotation = hints.get(param.name, str)
        meta = None
        if typing.get_origin(annotation) is typing.Annotated:
            annotation, *extras = typing.get_args(annotation)
            meta = next((e for e in extras if hasattr(e, "param_decls")), None)
        many, base = _shape(annotation)
        convert = _converter(base, f"{prog} {param.name}")
        required = param.default is inspect.Parameter.empty
        default = None if required else param.default
        decls = tuple(getattr(meta, "param_decls", ()) or ())
        help_text = (getattr(meta, "help", "") or "").replace("%", "%%")  # argparse %-formats help
        envvar = getattr(meta, "envvar", None)
        positional = isinstance(meta, Argument) or type(meta).__name__ == "ArgumentInfo" or (meta is None and required)
        if positional:
            nargs = ("+" if required else "*") if many else (None if required else "?")
            metavar = getattr(meta, "metavar", None) or param.name.upper()
            parser.add_argument(param.name, nargs=nargs, type=convert, help=help_text, metavar=metavar,
                                **({} if required else {"default": default}))
            readers[param.name] = (lambda v, d=default: d if v in ([], None) else v) if many else (lambda v: v)
            continue
        flags = list(decls) or [f"--{param.name.replace('_', '-')}"]
        shown = help_text
        if getattr(meta, "show_default", True) and default not in (None, False, [], (), ""):
            shown += f" (default: {default})"
        if envvar:
            shown += f" (env: {envvar})"
        if base is bool and not many:
            if decls:
                parser.add_argument(*flags, dest=param.name, action="store_true", help=shown)
            else:
                parser.add_argument(*flags, dest=param.name, action=argparse.BooleanOptionalAction, default=bool(default), help=shown)
            readers[param.name] = bool
            continue
        metavar = getattr(meta, "metavar", None) or (base.__name__.upper() if base in (int, str) else "PATH")
        if many:
            parser.add_argument(*flags, dest=param.name, action="append", type=convert, metavar=metavar, help=shown)
        else:
            parser.add_argument(*flags, dest=param.name, type=convert, metavar=metavar, help=shown, required=required and not envvar)
        readers[param.name] = _option_reader(default, many, envvar, convert, flags[0])
    return parser, readers


def _shape(annotation: Any) -> tuple[bool, type]:
    """(takes many values, the type of one) of an annotation like Optional[list[Path]]."""
    import types
    import typing

    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        annotation = args[0] if len(args) == 1 else str
        origin = typing.get_origin(annotation)
    if origin in (list, tuple, Sequence):
        (item, *_) = typing.get_args(annotation) or (str,)
        return True, item if item in (str, int, bool, Path) else str
    return False, annotation if annotation in (str, int, bool, Path) else str


def _converter(base: type, what: str) -> Callable[[str], Any]:
    if base is int:
        def to_int(text: str) -> int:
            try:
                return int(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None

        return to_int
    if base is Path:
        return Path
    return str


def _option_reader(default: Any, many: bool, envvar: str | None, convert: Callable[[str], Any], flag: str) -> Callable[[Any], Any]:
    def read(value: Any) -> Any:
        if value is not None:
            return value
        if envvar and os.environ.get(envvar):
            try:
                text = os.environ[envvar]
                return [convert(text)] if many else convert(text)
            except argparse.ArgumentTypeError as exc:
                raise UsageError(f"{flag} (from ${envvar}): {exc}") from None
        return list(default) if many and default is not None else default

    return read


# ----- running a command in this process (tests) -------------------------------------------


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str
    exception: BaseException | None

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


class CliRunner:
    """Run an App in this process with its output captured, as a test does (click's CliRunner's shape):
    an exception a command raises is kept in `exception`, with exit code 1 unless it carries its own."""

    def invoke(self, app: App, args: Sequence[str], catch_exceptions: bool = True) -> Result:
        out, err = io.StringIO(), io.StringIO()
        code, caught = 0, None
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                returned = app(list(args))
                code = returned if isinstance(returned, int) else 0
            except Exit as exc:
                code = exc.exit_code
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except Exception as exc:
                if not catch_exceptions:
                    raise
                code, caught = 1, exc
        return Result(code, out.getvalue(), err.getvalue(), caught)
