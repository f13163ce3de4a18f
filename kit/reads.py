"""Bytes a process's streams share, read once per event loop for each key."""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Callable

from asgiref.sync import sync_to_async


class SharedReads:
    """Bytes read once per event loop for each key, however many of its streams send
    them: the first stream to ask starts the reading (``read(*key)``, synchronous, on
    ``sync_to_async``'s thread) and the others await the same task.

    A process's streams hear of a change together and mostly want the same bytes:
    each taking its own turn through ``sync_to_async``'s one thread would cost
    two thousand turns a change, and a second and more of waiting for the last page.
    A reading that failed (the database away) is tried afresh by the next stream.
    """

    SIZE = 64

    def __init__(self, read: Callable[..., bytes]) -> None:
        self._read = read
        self._tasks: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, OrderedDict[tuple, asyncio.Task[bytes]]
        ] = weakref.WeakKeyDictionary()

    async def get(self, *key: object) -> bytes:
        loop = asyncio.get_running_loop()
        tasks = self._tasks.setdefault(loop, OrderedDict())
        task = tasks.get(key)
        if task is None:
            task = tasks[key] = loop.create_task(sync_to_async(self._read)(*key))
            task.add_done_callback(lambda done: self._forget_failed(tasks, key, done))
            while len(tasks) > self.SIZE:
                tasks.popitem(last=False)
        # One stream closing while it waits must not cancel the others' reading.
        return await asyncio.shield(task)

    @staticmethod
    def _forget_failed(tasks: OrderedDict, key: tuple, task: asyncio.Task) -> None:
        failed = task.cancelled() or task.exception() is not None
        if failed and tasks.get(key) is task:
            del tasks[key]
