"""Values every page's template may use."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, str]:
    return {"source_url": settings.SOURCE_URL}
