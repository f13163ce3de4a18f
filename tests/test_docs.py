"""The documents say what the code does: the limits they state are the code's."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import api
from maerstanas_site import guard

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", ROOT / "docs" / "DESIGN.md"]


def kilobytes(size: int) -> str:
    assert size % 1024 == 0, size
    return f"{size // 1024} kB"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_the_body_limits_are_stated_as_the_code_has_them(document: Path):
    text = " ".join(document.read_text(encoding="utf-8").split())
    stated = (
        f"({kilobytes(guard.MAX_BODY_BYTES)} at most,"
        f" {kilobytes(guard.UPLOADS['/import/'])} for a game record posted to `/import/`,"
        f" {kilobytes(api.MAX_BODY)} for the API's JSON"
    )
    assert stated in text, f"{document.name} does not say: {stated}"
