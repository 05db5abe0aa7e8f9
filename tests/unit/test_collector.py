"""pbem.cli.collector: cycles collected rarely, and what is alive at exit frozen."""

from __future__ import annotations


def test_a_pbem_process_collects_cycles_rarely_and_freezes_what_is_left_at_exit() -> None:
    # In a process of its own: the collector's settings are the whole process's.
    import subprocess
    import sys

    code = ("import atexit, gc\n"
            "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n"  # runs after pbem's
            "from pbem.cli import collector\n"
            "collector.settle(); collector.settle()\n"
            "print('threshold:', gc.get_threshold()[0])\n"
            "cycle = []; cycle.append(cycle); del cycle\n"
            "print('a cycle is still collected:', gc.collect() >= 1)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["threshold: 100000", "a cycle is still collected: True", "frozen at exit: True"]
