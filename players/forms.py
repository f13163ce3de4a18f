"""The sign-up form: allauth's, which must not say whether an address has an account.

With verification optional and addresses unique, allauth answers a sign-up with a
taken address "A user is already registered with this email address", which tells
anyone whose address has an account here. This form makes the account without the
address instead, and sends its owner the mail allauth sends where verification is
mandatory ("an account using that address already exists", with the way to reset
its password), saying the same "Confirmation e-mail sent" as to any other.
"""

from __future__ import annotations

from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.account.internal.flows.email_verification import (
    add_email_verification_sent_message,
    send_verification_email_to_address,
)
from allauth.account.models import EmailAddress
from django import forms
from django.http import HttpRequest


class SignupForm(AllauthSignupForm):
    taken_email = ""

    def validate_unique_email(self, value: str) -> str:
        try:
            return super().validate_unique_email(value)
        except forms.ValidationError as error:
            if error.code != "email_taken":
                raise
            self.taken_email = value
            return value

    def save(self, request: HttpRequest):
        """Make the account; with a taken address, without it, and tell its owner."""
        if self.taken_email:
            self.cleaned_data["email"] = ""
        user = super().save(request)
        if self.taken_email:
            # An address of nobody's account, at sign-up: allauth's mail to its owner,
            # and its message to the newcomer. Within allauth's wait between two mails
            # to one address none is sent, and the newcomer is told the same all the
            # same: as for a free address, whose mail was just sent.
            unowned = EmailAddress(user=None, email=self.taken_email)
            if not send_verification_email_to_address(request, unowned, signup=True):
                add_email_verification_sent_message(request, self.taken_email, signup=True)
        return user
