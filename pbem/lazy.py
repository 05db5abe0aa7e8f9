"""Modules imported on first use, so `pbem --help` does not load what only commands need.

`lazy("pbem.referee")` returns the module object at once and runs its code
when an attribute is first read (importlib.util.LazyLoader); an already
imported module is returned as it is.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}")
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


def loaded(module: ModuleType) -> bool:
    """Whether the module's code has run (type() does not wake a lazy module, attribute access would)."""
    return type(module) is ModuleType
