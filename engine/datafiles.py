"""Where the installed rules data and report templates are.

`scenarios/` and `templates/` are shipped as data packages (see
pyproject.toml), so they are found the same way from a checkout, an editable
install, a wheel or pipx: through importlib.resources, never relative to a
source file. Every ruleset finds its data here; nothing ruleset-specific.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def scenarios_dir() -> Path:
    """The top of the installed `scenarios/` data (a real folder on disk)."""
    return Path(str(files("scenarios")))


def templates_dir() -> Path:
    """The top of the installed `templates/` data (a real folder on disk)."""
    return Path(str(files("templates")))


__all__ = ["scenarios_dir", "templates_dir"]
