"""The account's own pages beside allauth's: its settings, and deleting it."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from game.models import BrowserGame


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="Your password, to be sure it is you",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.", code="wrong_password")
        return password


@login_required
@require_safe
def settings(request: HttpRequest) -> HttpResponse:
    """The account's settings: its password, its e-mail addresses, deleting it."""
    return render(request, "players/settings.html")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def delete(request: HttpRequest) -> HttpResponse:
    """Delete the account, once its password is given. Its games stay, their seats
    held by nobody's account ("deleted player"); nothing else of it is kept."""
    form = DeleteAccountForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        with transaction.atomic():
            BrowserGame.objects.filter(browser=f"account:{user.pk}").delete()
            user.delete()  # its addresses go with it; its seats are kept, held by nobody's
        logout(request)
        messages.success(request, "Your account is deleted. Its games stay, as a deleted player's.")
        return redirect("home")
    status = 400 if request.method == "POST" else 200
    return render(request, "players/delete.html", {"form": form}, status=status)
