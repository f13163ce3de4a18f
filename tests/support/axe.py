"""Accessibility checks in the browser: axe-core (from npm, pinned in package.json)
runs in a page and reports what breaks WCAG 2.1 A and AA and axe's best practices."""

from __future__ import annotations

from functools import cache
from pathlib import Path

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


@cache
def _source() -> str:
    if not AXE.exists():
        raise RuntimeError(f"{AXE} is missing: `make test` installs it (npm ci)")
    return AXE.read_text(encoding="utf-8")


def violations(page) -> list[str]:
    """What axe-core finds wrong with the page as it is now, one line per rule broken,
    naming the first places; empty when nothing is. The page's context must bypass
    the site's Content Security Policy, which allows no script but its own."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=_source())
    found = page.evaluate(
        """async (rules) => {
            const result = await axe.run(document, {runOnly: rules});
            return result.violations.map((v) => `${v.id} (${v.impact}): ` +
                v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", "));
        }""",
        RULES,
    )
    return list(found)
