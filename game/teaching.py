"""What every game's lessons share (``/learn/``): a lesson is a position and a check of
one move, and trying a move on it is the same whatever the game. Pure Python, no
Django; each game's lessons (``game.maerstanas.lessons``, ``game.cyngesheall.lessons``)
say how its positions are set up and what its moves do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.surface import (
    MoveError,
)

__all__ = ["Attempt", "BaseLesson", "Check", "attempt"]

# What a check says of a move that is legal but not the answer; None when it is.
Check = Callable[[Any, Any, Any], str | None]


@dataclass(frozen=True, slots=True)
class BaseLesson:
    """One lesson: what it teaches, the position of its task and the check of a move.
    A game's lessons add how the position is set up (``position``)."""

    slug: str
    title: str
    text: tuple[str, ...]  # the explanation, a paragraph each
    task: str
    start: str  # the position text of the task's board
    check: Check
    praise: str  # said when the task is done


@dataclass(frozen=True, slots=True)
class Attempt:
    """A move tried on a lesson's board: the position it leads to and what it did.

    ``refused`` is the rules' reason when the move could not be played at all (the
    board then stays as it was); ``message`` says what the move did, and ``solved``
    whether that is what the task asked.
    """

    move: str
    position: Any
    solved: bool
    message: str
    refused: str = ""
    unreadable: bool = False  # the text is no move at all (``refused`` says why)

    @property
    def sentence(self) -> str:
        """The message as a page prints it: ending in a full stop, unless it ends in a
        question (or already stops), so no page says "?." after a check's question."""
        return self.message if self.message.endswith((".", "?", "!")) else f"{self.message}."


def attempt(
    lesson: Any, text: str, parse_move: Callable[[str], Any], settle: Callable[[Any], Any]
) -> Attempt:
    """Try the move written ``text`` (read by the game's ``parse_move``) on ``lesson``'s
    board; ``settle`` plays what follows by itself, as a game does (a forced pass).

    Never raises for bad input: text that is not a move, or a move the rules forbid,
    comes back ``refused`` with the reason and the board unchanged.
    """
    before = lesson.position
    try:
        move = parse_move(text)
        reason = before.why_illegal(move)
    except MoveError as error:
        return Attempt(text, before, False, "", refused=str(error), unreadable=True)
    if reason is not None:
        # Some reasons name the move already ("W D4: D4 is not your opponent's stone").
        reason = reason.removeprefix(f"{move}: ")
        return Attempt(str(move), before, False, "", refused=f"{move} cannot be played: {reason}")
    after = settle(before.play(move))
    why_not = lesson.check(before, after, move)
    if why_not is None:
        return Attempt(str(move), after, True, lesson.praise)
    return Attempt(str(move), after, False, why_not)
