"""Keep the seats' secrets out of the logs.

A private seat link (``/g/<id>/seat/<colour>/<token>/``) and an invite link
(``/g/<id>/invite/<code>/``) carry their secret in the path, and every access log
line and "Not Found" warning would otherwise keep it for anyone who reads the logs.
"""

from __future__ import annotations

import logging
import re

_SECRET = re.compile(r"(/seat/[^/\s\"']+/|/invite/)[^/\s\"'?]+(?=/)")
REDACTED = "[secret]"


def redact(text: str) -> str:
    """``text`` with the secret of every seat or invite path in it replaced."""
    return _SECRET.sub(rf"\1{REDACTED}", text)


class RedactSecrets(logging.Filter):
    """A logging filter that redacts the secrets of seat and invite paths in a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _clean(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(map(_clean, record.args))
        elif isinstance(record.args, dict):
            record.args = {name: _clean(value) for name, value in record.args.items()}
        return True


def _clean(value: object) -> object:
    return redact(value) if isinstance(value, str) else value
