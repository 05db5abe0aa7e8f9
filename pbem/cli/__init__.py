"""The command line: `pbem` and its commands (`app`), each a thin layer over the rooms below."""
