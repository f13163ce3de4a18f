"""The system programs a few tests run: Debian's Chromium (the browser tests), nginx and
Caddy (the documented proxies, deploy/), valgrind (the instruction counts).

Where one is missing, its tests skip and say which package installs it, so that
`make test` passes on a machine that has only what the README asks for; CI (.ci/run)
installs them all and sets ``MAERSTANAS_REQUIRE_TOOLS=1``, which makes a missing one a
failure. ``MAERSTANAS_REQUIRE_BROWSER=1`` does the same for the browser alone.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REQUIRE_ALL = "MAERSTANAS_REQUIRE_TOOLS"
REQUIRE_BROWSER = "MAERSTANAS_REQUIRE_BROWSER"
# Each program, and the Debian package that installs it.
PACKAGES = {
    "chromium": "chromium",
    "nginx": "nginx-light",
    "caddy": "caddy",
    "valgrind": "valgrind",
}


def required(program: str) -> bool:
    """Whether a missing ``program`` fails its tests here instead of skipping them."""
    return bool(
        os.environ.get(REQUIRE_ALL) or (program == "chromium" and os.environ.get(REQUIRE_BROWSER))
    )


def require(program: str, path: str | None = None) -> None:
    """Skip the test, or fail it where the program is required, unless ``program`` (at
    ``path``, else on the PATH) is installed."""
    found = Path(path).exists() if path else shutil.which(program) is not None
    if found:
        return
    where = f" at {path}" if path else ""
    message = (
        f"{program} is not installed{where}: `apt-get install {PACKAGES[program]}` "
        "(.ci/run installs it)"
    )
    if required(program):
        pytest.fail(message)
    pytest.skip(message)
