"""The mutation score of ``make mutants``, per file, from mutmut's results.

mutmut changes the server side's code one small change at a time (``[tool.mutmut]``
in pyproject.toml) and runs the fast suite against each change: a change no test
notices "survived". Run after ``mutmut run``: ``python -m tests.support.mutants``
prints, per file, how many changes the tests caught, then the survivors to read
with ``mutmut show <name>``.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

CAUGHT = {"killed", "timeout", "segfault", "caught by type check"}  # the change was noticed
GOAL = 0.95  # of the mutants not marked equivalent in pyproject.toml
NOT_RUN = {"skipped", "not checked", "check was interrupted by user"}


def results() -> dict[str, str]:
    """mutmut's status of every mutant, by name (``game.play.seating.x_join__mutmut_3``)."""
    mutmut = Path(sys.executable).with_name("mutmut")
    output = subprocess.run(
        [mutmut, "results", "--all", "true"], capture_output=True, text=True, check=True
    ).stdout
    found = {}
    for line in output.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            found[name] = status
    return found


def main() -> None:
    statuses = results()
    if not statuses:
        sys.exit("no mutants: run `mutmut run` first")
    by_file: dict[str, Counter[str]] = defaultdict(Counter)
    for name, status in statuses.items():
        by_file[name.split(".x")[0]][status] += 1
    print(f"{'file':26} {'mutants':>8} {'caught':>7} {'missed':>7} {'score':>6}")
    total_caught = total_run = 0
    for module, counts in sorted(by_file.items()):
        run = sum(n for status, n in counts.items() if status not in NOT_RUN)
        if not run:  # a run stopped before it reached this file
            print(f"{module:26} {'not run':>8}")
            continue
        caught = sum(counts[status] for status in CAUGHT)
        total_caught, total_run = total_caught + caught, total_run + run
        print(f"{module:26} {run:8} {caught:7} {run - caught:7} {caught / run:6.1%}")
    print(
        f"{'all':26} {total_run:8} {total_caught:7} {total_run - total_caught:7} "
        f"{total_caught / total_run:6.1%}"
    )
    score = total_caught / total_run
    print(f"goal: {GOAL:.0%} caught: {'met' if score >= GOAL else 'not met'}")
    missed = sorted(name for name, status in statuses.items() if status not in CAUGHT | NOT_RUN)
    if missed:
        print(f"\nmissed ({len(missed)}; `mutmut show NAME` shows the change):")
        for name in missed:
            print(f"  {name}: {statuses[name]}")
    if score < GOAL:
        sys.exit(1)


if __name__ == "__main__":
    main()
