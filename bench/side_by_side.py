#!/usr/bin/env python3
"""Time two commands in alternation and print their median wall times.

    side_by_side.py ROUNDS LABEL -- FLOOR ARGV... -- AUDIT ARGV...

Each round runs the floor, then the audit (after one untimed round of each), so both see the
same moments of a noisy machine; hyperfine instead runs all of one command's runs before the
next command's. The commands are started directly (no shell) with their output discarded.
Prints one line: LABEL, rounds, floor median, audit median (seconds), tab-separated.
"""

import os
import statistics
import sys
import time


def run(argv):
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        actions = [
            (os.POSIX_SPAWN_DUP2, devnull, 1),
            (os.POSIX_SPAWN_DUP2, devnull, 2),
        ]
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
        os.waitpid(pid, 0)
        return time.perf_counter() - start
    finally:
        os.close(devnull)


def main():
    args = sys.argv[1:]
    rounds, label = int(args[0]), args[1]
    rest = args[3:]  # after the first `--`
    split = rest.index("--")
    floor, audit = rest[:split], rest[split + 1 :]
    run(floor)
    run(audit)
    times = ([], [])
    for _ in range(rounds):
        times[0].append(run(floor))
        times[1].append(run(audit))
    f, a = (statistics.median(t) for t in times)
    print(f"{label}\t{rounds}\t{f}\t{a}")


if __name__ == "__main__":
    main()
