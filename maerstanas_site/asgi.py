"""The ASGI application the site is served as (gunicorn with uvicorn's worker).

``RequestGuard`` stands in front of Django: it bounds what a client may send
before Django reads any of it (maerstanas_site/guard.py). Behind it, ``Handler``
serves the pages the way Django's WSGI handler does, synchronously, and only the
live streams the asynchronous way.
"""

import asyncio
import contextvars
import io
import os
import queue
import re
import threading

import django
from asgiref.sync import iscoroutinefunction
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.urls import URLPattern, URLResolver, get_resolver, set_script_prefix

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maerstanas_site.settings")


class Handler(ASGIHandler):
    """Django's ASGI handler for the live streams; every other request served as
    Django's WSGI handler serves it, in one step on the process's one thread.

    Django's ASGI handler runs the synchronous middleware and views of a request in
    several steps, each a hop between the event loop and a thread (the request's
    start, each synchronous middleware, the view, closing the response): some
    3.4 million instructions for ``/healthz``, where its WSGI handler takes under a
    million (``python -m bench.web`` prints both). The pages here are synchronous
    and short, so each is served whole in one such hop: the middleware chain of
    the WSGI handler, the body read into memory (the guard bounds it), the
    response closed before it is sent. The streams, the one asynchronous view, keep
    Django's own path, where a stream waits as a coroutine.

    Every request's synchronous part runs on one thread a process (asgiref's
    single executor: no ``ThreadSensitiveContext`` per request), which keeps its
    database connection; Django would make a thread and a connection for each
    request, and in ``make load`` that cost the server about 14 ms of CPU a move.
    """

    def __init__(self) -> None:
        super().__init__()  # the asynchronous middleware chain, for the streams
        self.pages = BaseHandler()
        self.pages.load_middleware(is_async=False)
        self.streams = _async_paths(get_resolver())

    async def __call__(self, scope, receive, send):  # noqa: ANN001, ANN204
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        if self.streams.fullmatch(scope["path"].lstrip("/")):
            await self.handle(scope, receive, send)
            return
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        start, body = await self._page(scope, body_file)
        await send(start)
        await send({"type": "http.response.body", "body": body})

    async def read_body(self, receive):  # noqa: ANN001, ANN201
        """The body, in memory: the guard read it already, and bounded it (16 kB, an
        import's 80 kB), so a temporary file that may roll over to disk buys nothing."""
        chunks = []
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise RequestAborted
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                return io.BytesIO(b"".join(chunks))

    async def _page(self, scope: dict, body_file) -> tuple[dict, bytes]:  # noqa: ANN001
        """A page's response, whole, from the process's page thread."""
        return await PAGES.call(self._serve, scope, body_file)

    def _serve(self, scope: dict, body_file) -> tuple[dict, bytes]:  # noqa: ANN001
        """A page's response, whole: as Django's WSGI handler makes it, on the
        process's thread."""
        try:
            set_script_prefix(get_script_prefix(scope))
            signals.request_started.send(sender=self.__class__, scope=scope)
            request, response = self.create_request(scope, body_file)
            if request is not None:
                response = self.pages.get_response(request)
            try:
                # A file (whitenoise's static files: a few kB) is read whole too.
                body = b"".join(response) if response.streaming else response.content
                headers = [
                    (name.encode("ascii"), value.encode("latin1"))
                    for name, value in response.items()
                ]
                headers += [
                    (b"Set-Cookie", cookie.output(header="").encode("ascii").strip())
                    for cookie in response.cookies.values()
                ]
                start = {
                    "type": "http.response.start",
                    "status": response.status_code,
                    "headers": headers,
                }
            finally:
                response.close()  # request_finished: the database's end of a request
        finally:
            body_file.close()
        return start, body


class PageThread:
    """The one thread a process serves its pages on, handed each page's work through a
    queue, its answer back through the event loop: the least a hop can cost (asgiref's
    ``sync_to_async``, or an executor's future, did more for each request)."""

    def __init__(self) -> None:
        self._work: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    async def call(self, function, *args):  # noqa: ANN001, ANN002, ANN201
        """``function(*args)`` run on the page thread, in this task's context."""
        if self._thread is None:
            self._start()
        loop = asyncio.get_running_loop()
        answer = loop.create_future()
        self._work.put((loop, answer, contextvars.copy_context(), function, args))
        return await answer

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="pages", daemon=True)
                self._thread.start()

    def _serve(self) -> None:
        while True:
            loop, answer, context, function, args = self._work.get()
            try:
                result = context.run(function, *args)
            except BaseException as error:  # handed to the task that asked, to raise
                loop.call_soon_threadsafe(_fail, answer, error)
            else:
                loop.call_soon_threadsafe(_give, answer, result)


def _give(answer: asyncio.Future, result: object) -> None:
    if not answer.cancelled():
        answer.set_result(result)


def _fail(answer: asyncio.Future, error: BaseException) -> None:
    if not answer.cancelled():
        answer.set_exception(error)


PAGES = PageThread()


def _async_paths(resolver: URLResolver, prefix: str = "") -> re.Pattern[str]:
    """One pattern matching the paths (without their leading slash) of the URLconf's
    asynchronous views: the live streams."""
    found = []
    for entry in resolver.url_patterns:
        regex = entry.pattern.regex.pattern.removeprefix("^").removesuffix(r"\Z")
        regex = re.sub(r"\(\?P<\w+>", "(?:", regex)  # a name may come in more than one
        if isinstance(entry, URLResolver):
            found.append(_async_paths(entry, prefix + regex).pattern)
        elif isinstance(entry, URLPattern) and iscoroutinefunction(entry.callback):
            found.append(prefix + regex)
    return re.compile("|".join(f"(?:{pattern})" for pattern in found if pattern) or "(?!)")


django.setup(set_prefix=False)
django_application = Handler()

from maerstanas_site.guard import RequestGuard  # noqa: E402  (after Django is set up)

application = RequestGuard(django_application)
