"""2 Components and 4 The Galleys: the counters and their ratings (2.1), the maps and hex grid (2.2),
the charts (2.3, `charts/`), the rules data bundle, and a galley with its position and facing (4.1, 4.2),
and the battlefield's index of who fills which hex (`occupancy`, 6.6).

Lowest room: it imports nothing of War Galley's above it.
"""
