"""Run one command and print its wall time, CPU time, peak memory and exit status as JSON (for
bench_commands.py).

    python -S bench/run_child.py COMMAND [ARG ...]

Why a process of its own: a child's peak memory (the kernel's max RSS) counts the memory it had
before `exec`, that is, a copy of the process that forked it. Forked from the benchmark (tens of
MiB, games and pbem imported), every command would seem at least that big; forked from this small
interpreter (-S: no site packages), a command's peak is its own, give or take this one's few MiB.
"""

import json
import os
import subprocess
import sys
import time

started = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
error = child.stderr.read().decode(errors="replace").strip() if child.stderr is not None else ""
_, status, usage = os.wait4(child.pid, 0)
wall = time.perf_counter() - started
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_kib": usage.ru_maxrss,
                  "status": os.waitstatus_to_exitcode(status), "error": error[-2000:]}))
