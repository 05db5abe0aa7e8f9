"""The War Galley rules engine.

Pure functions over immutable state: no files, keys, HTML or randomness.
Dice come in through `engine.dice.Dice`; see `shared/design/architecture.md`.
"""
