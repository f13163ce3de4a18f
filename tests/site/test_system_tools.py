"""The tests that need a system program skip without it, naming the package, so the
README's `make test` passes on a machine with only what the README asks for; CI, which
installs them all, makes a missing one a failure (tests/support/system.py)."""

from __future__ import annotations

import pytest

from tests.support import system


@pytest.fixture
def nothing_installed(monkeypatch):
    monkeypatch.setattr(system.shutil, "which", lambda program: None)
    monkeypatch.delenv(system.REQUIRE_ALL, raising=False)
    monkeypatch.delenv(system.REQUIRE_BROWSER, raising=False)
    return monkeypatch


@pytest.mark.parametrize(("program", "package"), sorted(system.PACKAGES.items()))
def test_a_missing_program_skips_its_tests_and_names_the_package(
    nothing_installed, program, package
):
    path = "/nowhere/chromium" if program == "chromium" else None
    with pytest.raises(pytest.skip.Exception, match=f"apt-get install {package}"):
        system.require(program, path)


@pytest.mark.parametrize("program", ["nginx", "caddy", "valgrind", "chromium"])
def test_where_the_tools_are_required_a_missing_one_fails(nothing_installed, program):
    nothing_installed.setenv(system.REQUIRE_ALL, "1")
    with pytest.raises(pytest.fail.Exception, match=f"{program} is not installed"):
        system.require(program, "/nowhere" if program == "chromium" else None)


def test_requiring_the_browser_alone_still_lets_the_proxies_skip(nothing_installed):
    nothing_installed.setenv(system.REQUIRE_BROWSER, "1")
    with pytest.raises(pytest.fail.Exception):
        system.require("chromium", "/nowhere/chromium")
    with pytest.raises(pytest.skip.Exception):
        system.require("nginx")


def test_an_installed_program_lets_its_tests_run(monkeypatch):
    monkeypatch.setattr(system.shutil, "which", lambda program: f"/usr/bin/{program}")
    system.require("nginx")
    system.require("chromium", __file__)  # any file that is there


def test_ci_requires_every_tool():
    from pathlib import Path

    ci = (Path(__file__).parents[2] / ".ci" / "run").read_text(encoding="utf-8")
    assert f"export {system.REQUIRE_ALL}=1" in ci
    for package in system.PACKAGES.values():
        assert package in ci
