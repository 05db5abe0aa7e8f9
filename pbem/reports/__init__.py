"""Presentation: the HTML turn report, the one-file archive, provenance marks and the files-per-turn tally."""
