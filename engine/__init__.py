"""The rules: one package per ruleset (war_galley, fleets, duel) over a shared neutral top.

Pure functions over immutable state: no files written, no keys, HTML or randomness; a ruleset reads
only its own shipped data. Dice come in through `engine.dice.Dice`; the layers are in docs/architecture.md.
"""
