"""A lesson of ``/learn/`` as its page shows it: the board before or after the move tried."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from game.kinds import GameKind


@dataclass(frozen=True, slots=True)
class LessonPage:
    """A lesson as its page shows it: the board before or after the move tried."""

    lesson: Any
    number: int
    url: str
    board: Any
    score: Any
    tried: Any  # the attempt, once a move was tried
    previous: Any
    following: Any

    @property
    def result(self) -> str:
        """ "solved", "try-again" or "refused" once a move was tried; else ""."""
        if self.tried is None:
            return ""
        if self.tried.refused:
            return "refused"
        return "solved" if self.tried.solved else "try-again"


def lesson_page(kind: GameKind, number: int, text: str, stone: str) -> LessonPage:
    """The ``number``-th lesson (from 0) of ``kind``, with the move ``text`` tried on
    its board when there is one, the stone ``stone`` chosen."""
    lessons = kind.lessons
    lesson = lessons[number]
    tried = lesson.attempt(text) if text else None
    position = tried.position if tried is not None else lesson.position
    mover = None if tried is not None and not tried.refused else position.turn
    board = kind.drawing.draw_board(
        position,
        mover,
        stone or lesson.stone,
        hinges=lesson.hinges,
        target="#lesson",
        held_only=True,
    )
    return LessonPage(
        lesson=lesson,
        number=number + 1,
        url=reverse("lesson", args=[lesson.slug]),
        board=board,
        score=position.score(),
        tried=tried,
        previous=lessons[number - 1] if number else None,
        following=lessons[number + 1] if number + 1 < len(lessons) else None,
    )
