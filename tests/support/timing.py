"""Holding code to the wall clock on a machine that is not ours alone."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# A search that does not look at its clock overruns every time; a pause of the
# machine's (another process's turn, a collection) rarely comes three times running.
TRIES = 3


def timed(run: Callable[[], T], at_most: float, tries: int = TRIES) -> tuple[T, list[float]]:
    """Run ``run`` until it takes at most ``at_most`` seconds, ``tries`` times at
    most; what its last run answered, and each run's seconds (the last within
    ``at_most`` unless none was)."""
    spent: list[float] = []
    for _ in range(tries):
        started = time.perf_counter()
        answer = run()
        spent.append(time.perf_counter() - started)
        if spent[-1] <= at_most:
            break
    return answer, spent
