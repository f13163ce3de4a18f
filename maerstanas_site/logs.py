"""Keep the secrets that travel in addresses out of the logs.

A private seat link (``/g/<id>/seat/<colour>/<token>/``), an invite link
(``/g/<id>/invite/<code>/``), a password reset link
(``/accounts/password/reset/key/<key>/``) and an address's confirmation link
(``/accounts/confirm-email/<key>/``) carry their secret in the path, and every
access log line and "Not Found" warning would otherwise keep it for anyone who
reads the logs: with a reset key, they took the account over. Redacted with or
without the final slash, with a query after it, under ``/api/`` or wherever a
client put it.
"""

from __future__ import annotations

import logging
import re

# What ends a path's segment or a query's value in a log line.
_END = r"/\s\"'?#&"
# A seat's token (but not the word "renew" of the address that renews it), an
# invite's code and allauth's keys, where they stand in a path, whatever follows: a
# slash, a query, the end of the line; and a query's invite, token, code or key,
# wherever someone put it.
_SECRET = re.compile(
    rf"(/seat/[^{_END}]+/|/invite/)(?!renew(?:[{_END}]|$))[^{_END}]+"
    rf"|(/password/reset/key/|/confirm-email/)[^{_END}]+"
    rf"|([?&](?:invite|token|code|key)=)[^{_END}]+",
    re.IGNORECASE,
)
REDACTED = "[secret]"


def redact(text: str) -> str:
    """``text`` with the secret of every such path, or query, replaced."""
    return _SECRET.sub(lambda found: f"{found[1] or found[2] or found[3]}{REDACTED}", text)


class RedactSecrets(logging.Filter):
    """A logging filter that redacts the secrets of seat, invite, reset and
    confirmation paths in a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _clean(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(map(_clean, record.args))
        elif isinstance(record.args, dict):
            record.args = {name: _clean(value) for name, value in record.args.items()}
        return True


def _clean(value: object) -> object:
    return redact(value) if isinstance(value, str) else value
