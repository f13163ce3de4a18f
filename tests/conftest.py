"""Shared fixtures: the test database, static files without a collected manifest,
failure reports kept on each test, and browsers. Helpers that tests import live in
``tests/support/``."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from tests.support import system
from tests.support.servers import ARTIFACTS

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

# --- Django fixtures ---------------------------------------------------------------


def pytest_configure(config: pytest.Config) -> None:
    """Hash the tests' passwords with a fast hasher: the site's own (PBKDF2, a million
    rounds) costs a quarter of a second a sign-up or login, and no test is about its
    strength. The servers the live tests start keep the site's settings."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Test on an SQLite file, in WAL mode, as the site runs, not on a shared-cache memory
    database, whose table locks behave otherwise (the race tests rely on the real thing).

    Each worker of a parallel run (``-n``) has its own: the file in the worker's own
    temporary folder, or on PostgreSQL the test database's name with pytest-django's
    suffix (``test_test_gw0``)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database.setdefault("TEST", {})["NAME"] = str(
            tmp_path_factory.mktemp("database") / "test.sqlite3"
        )


@pytest.fixture(autouse=True)
def _plain_static_storage(request: pytest.FixtureRequest) -> None:
    """Serve static URLs without the collected manifest, which a fresh checkout lacks.

    Only for tests that render through Django in this process; the gunicorn-backed
    tests run ``collectstatic`` and use the production storage.
    """
    if "settings" not in request.fixturenames and not request.node.get_closest_marker("django_db"):
        return
    settings = request.getfixturevalue("settings")
    settings.STORAGES = settings.STORAGES | {
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    }
    settings.STATIC_ROOT = None  # nothing collected: whitenoise has nothing to serve


@pytest.fixture(autouse=True)
def _empty_caches(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each test starts with the server's caches empty (pictures kept by their ETag,
    allauth's limits in the database's table), as a fresh site does. The table is
    emptied only for a test given the database, once it has it: a transactional
    test's flush leaves it as it was."""
    from django.core.cache import caches
    from django.core.cache.backends.db import DatabaseCache

    given = {"db", "transactional_db", "live_server"} & set(request.fixturenames)
    if request.node.get_closest_marker("django_db") or given:
        request.getfixturevalue("_django_db_helper")  # as pytest-django's own marker does
        for cache in caches.all():
            cache.clear()
    else:
        for cache in caches.all(initialized_only=True):
            if not isinstance(cache, DatabaseCache):
                cache.clear()
    yield


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """Keep each phase's report on the test, so fixtures can save evidence of failures."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


# --- Browser fixtures (Playwright driving Debian's Chromium) -----------------------------


@pytest.fixture(scope="session")
def browser():
    system.require("chromium", CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, request) -> Iterator[Callable[..., object]]:
    """Open pages in fresh browser contexts (separate cookies: separate people)."""
    contexts = []

    def open_page(**options):
        context = browser.new_context(**({"viewport": {"width": 1100, "height": 900}} | options))
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    yield open_page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        for i, context in enumerate(contexts):
            for j, page in enumerate(context.pages):
                page.screenshot(path=ARTIFACTS / f"{request.node.name}-{i}-{j}.png", full_page=True)
    for context in contexts:
        context.close()
