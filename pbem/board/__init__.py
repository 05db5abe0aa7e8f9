"""The board room: `pbem play`'s local page, where a player reads the battle and clicks his orders.

Above game (whose session signs and writes), exchange (mail) and reports (the one drawing of the board);
below cli. It knows no ruleset: the ruleset's view draws the board and its `play_options` offers the clicks.
"""
