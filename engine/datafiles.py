"""Where the installed rules data and report templates are.

`scenarios/` and `templates/` are shipped as data packages (see
pyproject.toml), so they are found the same way from a checkout, an editable
install, a wheel or pipx: through importlib.resources, never relative to a
source file. Each ruleset has its own folder in both (`scenarios/war_galley/`,
`templates/war_galley/`), named like its package under engine/. Nothing here
is ruleset-specific.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def scenarios_dir(ruleset: str | None = None) -> Path:
    """The installed `scenarios/` data, or one ruleset's folder of it (a real folder on disk)."""
    top = Path(str(files("scenarios")))
    return top / ruleset if ruleset else top


def templates_dir(ruleset: str | None = None) -> Path:
    """The installed `templates/` data, or one ruleset's folder of it (a real folder on disk)."""
    top = Path(str(files("templates")))
    return top / ruleset if ruleset else top


__all__ = ["scenarios_dir", "templates_dir"]
