"""The ASGI application the site is served as (gunicorn with uvicorn's worker).

``RequestGuard`` stands in front of Django: it bounds what a client may send
before Django reads any of it (maerstanas_site/guard.py).
"""

import os

import django
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maerstanas_site.settings")


class Handler(ASGIHandler):
    """Django's ASGI handler, with every request's synchronous code on one thread.

    Django runs each request's synchronous part (middleware and views, all of them
    synchronous here but the live stream) in a thread of its own, made for that
    request, with a database connection of its own, opened for it and closed after
    it. The views are short and hold the interpreter lock while they run, so threads
    buy no parallelism here, only cost: in ``make load`` the server spent about
    14 ms of CPU a move that way. On one thread a process keeps one connection, as
    a synchronous worker did, and the streams' coroutines wait beside it.
    """

    async def __call__(self, scope, receive, send):  # noqa: ANN001, ANN204
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)


django.setup(set_prefix=False)
django_application = Handler()

from maerstanas_site.guard import RequestGuard  # noqa: E402  (after Django is set up)

application = RequestGuard(django_application)
