"""Mail the site cannot send: said in the log, never written out.

Without an SMTP server (``DJANGO_EMAIL_HOST`` unset) Django's console backend wrote
each mail whole to the server's output, and so to its log: a password reset's link,
an address's confirmation link, a notice. Whoever read the log took the account
over. This backend logs only that a mail was not sent, to whom and with which
subject; the operator who wants the mail sets ``DJANGO_EMAIL_HOST``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend

logger = logging.getLogger(__name__)


class UnsentBackend(BaseEmailBackend):
    """Sends nothing; logs a warning for each mail, naming its recipients and subject."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        for message in email_messages:
            logger.warning(
                "A mail was not sent, as DJANGO_EMAIL_HOST is not set: to %s, subject %r",
                ", ".join(message.recipients()),
                message.subject,
            )
        return 0
