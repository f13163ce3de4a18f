"""Gunicorn defaults for serving the site; each can be set from the environment."""

import logging
import multiprocessing
import os

from maerstanas_site.logs import RedactSecrets

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# ASGI under uvicorn's worker: an open stream of a live page (kit.live) costs a
# coroutine, not a worker, and a slow client's bytes are awaited, not waited on.
# Ordinary views stay synchronous and run one at a time in each worker's thread;
# they are short and CPU-bound, and SQLite takes one writer at a time: one worker
# per core plus one.
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() + 1))
worker_class = "maerstanas_site.workers.Worker"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 30))
# Connections (open streams included) a worker serves at once; past that, 503. The
# worker keeps it below its open-file limit (maerstanas_site/workers.py): raise
# both together (systemd: LimitNOFILE=, see deploy/).
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", 1000))
graceful_timeout = 10
keepalive = 5
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 0))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
# gunicorn's control socket (gunicornc) lies at one path per user by default, so a
# second instance of the site, or of anything else served by gunicorn, took it from
# the first. Off unless a path of this instance's own is given.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "")
control_socket_disable = not control_socket


def on_starting(server):
    """Keep the secrets of addresses out of gunicorn's own access log too: the site's
    worker redacts uvicorn's (maerstanas_site/workers.py), and the WSGI application
    under gunicorn's sync worker logs through this one."""
    logging.getLogger("gunicorn.access").addFilter(RedactSecrets())
