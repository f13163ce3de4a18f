"""URL converters: malformed ids end as a 404 at the router, before any query."""

from __future__ import annotations


class GameIdConverter:
    """A game's public id: URL-safe base64 letters (``secrets.token_urlsafe``), at most 32."""

    regex = "[A-Za-z0-9_-]{1,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
