"""A third game, added as a folder and one line in settings: ``tests/third_game``, Three
in a row on a 5×4 board, played through the home form, the game page, the API and a
record. The site reads its games once, from the settings it starts with, so the game's
own tests (``tests/third_game/plays.py``) run in a process of their own, under the
settings that add it (``tests.third_game.settings``); nothing outside its folder knows
of it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from game.registry import KINDS

FOLDER = Path(__file__).parents[1] / "third_game"


def test_the_third_game_is_no_game_of_the_usual_settings():
    assert "tests.third_game" not in settings.INSTALLED_APPS
    assert "threeinrow" not in KINDS


def test_a_third_game_folder_plays_through_the_site_under_its_own_settings(tmp_path):
    environment = os.environ | {"DJANGO_SETTINGS_MODULE": "tests.third_game.settings"}
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:xdist",
        "-p",
        "no:cacheprovider",
        "--ds=tests.third_game.settings",
        f"--basetemp={tmp_path / 'inner'}",
        "-q",
        str(FOLDER / "plays.py"),
    ]
    done = subprocess.run(
        command,
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    # Every test of the folder ran, and none was skipped.
    # Every test of the folder ran and passed, none skipped.
    tests = re.findall(r"^def test_", (FOLDER / "plays.py").read_text(encoding="utf-8"), re.M)
    assert f"\n{len(tests)} passed in " in output, output
