"""The documents say what the code does: the limits they state are the code's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game import api
from maerstanas_site import guard

ROOT = Path(__file__).resolve().parents[2]
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


# The trees ----------------------------------------------------------------------------------

# The apps and packages of the project, each a top-level folder of the tree.
TOP = (
    "maerstanas_site",
    "kit",
    "game",
    "players",
    "lobby",
    "tournaments",
    "chat",
    "notifications",
    "bench",
)
# Django's own names for an app's parts say what they are: the tree may leave them out.
CONVENTIONAL = {"__init__", "apps", "admin", "urls", "migrations", "commands"}


def tree(document: Path) -> dict[str, str]:
    """The first fenced block of ``document``, by top-level entry: its text."""
    block = document.read_text(encoding="utf-8").split("```")[1]
    sections: dict[str, str] = {}
    current = ""
    for line in block.splitlines():
        if line and not line[0].isspace():
            current = line.split()[0].rstrip("/")
        sections[current] = sections.get(current, "") + line + "\n"
    return sections


def modules(top: str) -> list[Path]:
    found = []
    for path in sorted((ROOT / top).rglob("*.py")):
        parts = set(path.relative_to(ROOT).with_suffix("").parts)
        if not parts & CONVENTIONAL:
            found.append(path)
    return found


@pytest.mark.parametrize("top", TOP)
def test_designs_tree_names_every_app_and_module(top: str):
    """DESIGN's tree names each app, and each module and package inside it (its file
    or folder name, or the word, in the app's part of the tree)."""
    sections = tree(ROOT / "docs" / "DESIGN.md")
    assert top in sections, f"DESIGN's tree has no {top}/"
    text = sections[top]
    missing = []
    for path in modules(top):
        relative = path.relative_to(ROOT / top)
        for folder in relative.parts[:-1]:
            if f"{folder}/" not in text:
                missing.append(f"{folder}/")
        if not re.search(rf"\b{re.escape(path.stem)}\b", text):
            missing.append(str(relative))
    assert not missing, f"DESIGN's tree under {top}/ does not name: {sorted(set(missing))}"


@pytest.mark.parametrize("top", TOP)
def test_readmes_tree_names_every_app(top: str):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(rf"^{top}[/.]", text, re.M), f"README's tree has no {top}/"
