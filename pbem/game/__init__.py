"""The game: the referee's rules of admission, the folder, the store that loads it, and the player's own files.

Finds the game's ruleset by entry point (`ruleset`), never by import (docs/architecture.md).
"""
