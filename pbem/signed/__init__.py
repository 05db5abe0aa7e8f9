"""The signed-file core: canonical encoding, files, keys, chains, dice, commitments (docs/protocol.md).

What a single file is and proves, checked by itself: it knows no game folder, no game and no ruleset.
"""
