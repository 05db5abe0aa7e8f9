"""Play: what the rules say to players rather than what they decide. The legal-action generator (one for
validation, listings, error messages and the fuzzer), the order notation, events and states in words,
the movement planner, the demo player, and `apply`/`pending` (dispatch).
"""
