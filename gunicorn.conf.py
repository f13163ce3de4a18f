"""Gunicorn defaults for serving the site; each can be set from the environment."""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# ASGI under uvicorn's worker: an open stream of a live page (game.live) costs a
# coroutine, not a worker, and a slow client's bytes are awaited, not waited on.
# Ordinary views stay synchronous and run one at a time in each worker's thread;
# they are short and CPU-bound, and SQLite takes one writer at a time: one worker
# per core plus one.
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() + 1))
worker_class = "maerstanas_site.workers.Worker"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 30))
graceful_timeout = 10
keepalive = 5
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 0))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
