"""Settings come from the environment, fail loudly on bad values, and pass --deploy."""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from maerstanas_site.settings import env_bool, env_float, env_int, env_list
from tests.support.servers import ROOT

PRODUCTION = {
    "DJANGO_SECRET_KEY": "a-long-random-production-secret-" + "x7Qp2" * 10,
    "DJANGO_ALLOWED_HOSTS": "play.example.org",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://play.example.org",
    "DJANGO_SECURE": "1",
}


def check_deploy(extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")} | extra
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )


def test_check_deploy_is_clean_in_production():
    result = check_deploy(PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_flags_the_development_key():
    result = check_deploy({})
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_refuses_to_start_without_a_secret_key_and_says_why():
    without_key = {name: value for name, value in PRODUCTION.items() if name != "DJANGO_SECRET_KEY"}
    for env in (without_key, without_key | {"DJANGO_SECRET_KEY": ""}):
        result = check_deploy(env)
        assert result.returncode != 0
        assert "DJANGO_SECURE is on but DJANGO_SECRET_KEY is not set" in result.stderr


@pytest.mark.parametrize(
    "env, refused",
    [
        ({"DJANGO_ALLOWED_HOSTS": "play.example.org"}, "answers to play.example.org"),
        ({"DJANGO_ALLOWED_HOSTS": "localhost,192.168.1.7"}, "answers to 192.168.1.7"),
        ({"DJANGO_BEHIND_PROXY": "1"}, "answers to the requests a proxy hands it"),
    ],
)
def test_the_development_key_is_refused_wherever_others_can_reach_the_site(env, refused):
    result = check_deploy(env)
    assert result.returncode != 0
    assert f"DJANGO_SECRET_KEY is not set, and the site {refused}" in result.stderr
    for loopback in ({}, {"DJANGO_ALLOWED_HOSTS": "localhost,127.0.0.1,[::1]"}):
        ran = subprocess.run(
            [sys.executable, "manage.py", "check"],
            cwd=ROOT,
            env={k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")} | loopback,
            capture_output=True,
            text=True,
        )
        assert ran.returncode == 0, ran.stderr


@pytest.mark.parametrize(
    "key, says",
    [
        ("x", "1 character"),
        ("correct-horse-battery-staple", "28 characters"),
        ("ab" * 40, "only 2 different characters"),
        ("django-insecure-" + "k3Yq9" * 10, "it starts with django-insecure-"),
    ],
)
@pytest.mark.parametrize(
    "reach",
    [
        {"DJANGO_ALLOWED_HOSTS": "play.example.org"},
        {"DJANGO_BEHIND_PROXY": "1"},
        {"DJANGO_SECURE": "1"},
    ],
)
def test_a_weak_secret_key_is_refused_wherever_others_can_reach_the_site(key, says, reach):
    result = check_deploy({"DJANGO_SECRET_KEY": key} | reach)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"DJANGO_SECRET_KEY is too weak: {says}" in result.stderr
    assert len(key) < 8 or key not in result.stderr  # the key itself is never said


def test_a_weak_secret_key_starts_on_loopback_with_djangos_warning():
    result = check_deploy({"DJANGO_SECRET_KEY": "x"})
    assert "ImproperlyConfigured" not in result.stderr
    assert "security.W009" in result.stderr  # check --deploy still says it


@pytest.mark.parametrize(
    "value, expected", [("1", True), ("yes", True), ("off", False), ("", False)]
)
def test_env_bool_reads_yes_and_no(monkeypatch, value, expected):
    monkeypatch.setenv("SOME_FLAG", value)
    assert env_bool("SOME_FLAG") is expected


def test_an_unset_flag_is_off_unless_said_otherwise(monkeypatch):
    monkeypatch.delenv("SOME_FLAG", raising=False)
    assert env_bool("SOME_FLAG") is False  # DJANGO_DEBUG unset: no debug pages
    assert env_bool("SOME_FLAG", default=True) is True


def test_env_bool_refuses_other_words(monkeypatch):
    monkeypatch.setenv("SOME_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="SOME_FLAG"):
        env_bool("SOME_FLAG")


def test_env_int_refuses_words(monkeypatch):
    monkeypatch.setenv("SOME_NUMBER", "ten")
    with pytest.raises(ImproperlyConfigured, match="SOME_NUMBER"):
        env_int("SOME_NUMBER", 1)


@pytest.mark.parametrize(("text", "number"), [("0.05", 0.05), ("15", 15.0), (" 2.5 ", 2.5)])
def test_env_float_reads_a_positive_number(monkeypatch, text, number):
    monkeypatch.setenv("SOME_SECONDS", text)
    assert env_float("SOME_SECONDS", 9.0) == number


def test_env_float_falls_back_to_its_default_when_unset(monkeypatch):
    monkeypatch.delenv("SOME_SECONDS", raising=False)
    assert env_float("SOME_SECONDS", 0.25) == 0.25


@pytest.mark.parametrize("text", ["0", "-1", "soon", "", "inf", "nan"])
def test_env_float_refuses_anything_but_a_positive_number(monkeypatch, text):
    monkeypatch.setenv("SOME_SECONDS", text)
    with pytest.raises(ImproperlyConfigured) as refused:
        env_float("SOME_SECONDS", 1.0)
    assert str(refused.value) == f"SOME_SECONDS must be a positive number: {text!r}"


def test_env_list_splits_on_commas(monkeypatch):
    monkeypatch.setenv("SOME_HOSTS", " a.example , b.example,, ")
    assert env_list("SOME_HOSTS", []) == ["a.example", "b.example"]
    monkeypatch.delenv("SOME_HOSTS")
    assert env_list("SOME_HOSTS", ["x"]) == ["x"]


def test_every_environment_variable_read_is_in_the_readme_table() -> None:
    read = set()
    for source in ("maerstanas_site/settings.py", "gunicorn.conf.py"):
        text = (ROOT / source).read_text(encoding="utf-8")
        read |= set(
            re.findall(r"""(?:environ(?:\.get\(|\[)|env_\w+\()\s*["']([A-Z_]+)["']""", text)
        )
    assert {"DJANGO_SECRET_KEY", "DATABASE_CONN_MAX_AGE", "GUNICORN_BIND"} <= read  # the scan works
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = set(re.findall(r"^\| `([A-Z_]+)` \|", readme, re.M))
    assert read - table == set(), "read by the settings but not in the README's table"
    assert table - read == set(), "in the README's table but read by nothing"


@pytest.mark.parametrize(
    ("given", "disabled"), [(None, True), ("", True), ("/run/maerstanas/gunicorn.ctl", False)]
)
def test_gunicorns_control_socket_is_off_unless_a_path_is_given(monkeypatch, given, disabled):
    from gunicorn.config import Config

    if given is None:
        monkeypatch.delenv("GUNICORN_CONTROL_SOCKET", raising=False)
    else:
        monkeypatch.setenv("GUNICORN_CONTROL_SOCKET", given)
    read = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    config = Config()
    config.set("control_socket_disable", read["control_socket_disable"])
    if read["control_socket"]:  # gunicorn's own default path stands for none given
        config.set("control_socket", read["control_socket"])
    assert config.control_socket_disable is disabled
    assert read["control_socket"] == (given or "")
    if not disabled:
        assert config.control_socket == given
