"""The account's notifications: the list, marking them read, and how they are mailed."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from game.views.common import SeeOther
from notifications.models import Notification, Preference, email_choice

PER_PAGE = 50


class EmailForm(forms.Form):
    email = forms.ChoiceField(
        label="E-mail me my notifications",
        choices=Preference.Email.choices,
        widget=forms.RadioSelect,
    )


@never_cache  # an account's own list
@require_safe
def notifications(request: HttpRequest) -> HttpResponse:
    """The account's notices, newest first, a page at a time (``?page=``), and the
    choice of e-mail; a guest is told notices are for accounts."""
    if not request.user.is_authenticated:
        return render(request, "notifications/list.html", {"guest": True})
    form = EmailForm(initial={"email": email_choice(request.user.pk)})
    return _page(request, form)


def _page(request: HttpRequest, form: EmailForm, status: int = 200) -> HttpResponse:
    listed = Notification.objects.filter(user=request.user).order_by("-created", "-pk")
    page = Paginator(listed, PER_PAGE).get_page(request.GET.get("page"))
    context = {"page": page, "form": form}
    return render(request, "notifications/list.html", context, status=status)


@login_required
@require_POST
def mark_read(request: HttpRequest) -> HttpResponse:
    """Mark every unread notice of the account read, and go back to the list."""
    unread = Notification.objects.filter(user=request.user, read_at=None)
    unread.update(read_at=timezone.now())
    return SeeOther(reverse("notifications"))


@login_required
@require_POST
def email(request: HttpRequest) -> HttpResponse:
    """Keep the account's choice of e-mail: off, each notice, or a daily digest."""
    form = EmailForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    choice = form.cleaned_data["email"]
    Preference.objects.update_or_create(user=request.user, defaults={"email": choice})
    messages.success(request, f"Saved: {Preference.Email(choice).label.lower()}.")
    return SeeOther(reverse("notifications"))
