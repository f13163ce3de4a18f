"""The worker's part of tournaments: an event begins at its start time, and an
arena closes at its end (``manage.py worker`` runs them when due)."""

from __future__ import annotations

from django_tasks import task

from tournaments import events, rounds


@task()
def begin(public_id: str) -> bool:
    """Start the event if it is due and still waiting; whether it started."""
    return events.begin_due(public_id)


@task()
def close(public_id: str) -> bool:
    """Close an arena whose time is up; whether it ended now."""
    return rounds.close_due(public_id)
