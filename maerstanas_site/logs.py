"""Keep the seats' secrets out of the logs.

A private seat link (``/g/<id>/seat/<colour>/<token>/``) and an invite link
(``/g/<id>/invite/<code>/``) carry their secret in the path, and every access log
line and "Not Found" warning would otherwise keep it for anyone who reads the logs:
with or without the final slash, with a query after it, under ``/api/`` or
wherever a client put it.
"""

from __future__ import annotations

import logging
import re

# What ends a path's segment or a query's value in a log line.
_END = r"/\s\"'?#&"
# A seat's token (but not the word "renew" of the address that renews it) and an
# invite's code, where they stand in a path, whatever follows: a slash, a query, the
# end of the line; and a query's invite or token, wherever someone put it.
_SECRET = re.compile(
    rf"(/seat/[^{_END}]+/|/invite/)(?!renew(?:[{_END}]|$))[^{_END}]+"
    rf"|([?&](?:invite|token|code)=)[^{_END}]+",
    re.IGNORECASE,
)
REDACTED = "[secret]"


def redact(text: str) -> str:
    """``text`` with the secret of every seat or invite path, or query, replaced."""
    return _SECRET.sub(lambda found: f"{found[1] or found[2]}{REDACTED}", text)


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
