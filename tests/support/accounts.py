"""Accounts for tests: one password that Django's validators accept, and a client
signed up (and so logged in) through the real sign-up form."""

from __future__ import annotations

from django.test import Client

PASSWORD = "hinge-and-thunder-42"


def sign_up(client: Client, username: str, email: str = "", password: str = PASSWORD):
    """Post the sign-up form; the response."""
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": password, "password2": password},
    )


def account(username: str) -> Client:
    """A new client, signed up as ``username`` and logged in."""
    client = Client()
    response = sign_up(client, username)
    assert response.status_code == 302, response.content
    return client
