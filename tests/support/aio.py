"""Run a coroutine to its end from a test, whatever event loop the test's thread holds.

Playwright's synchronous API keeps an event loop running in the main thread for the
whole session once a browser test has run, and ``asyncio.run`` refuses to start
another there; a thread of its own has none.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` on a fresh thread; its result, or its exception."""
    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(asyncio.run, coroutine).result()
