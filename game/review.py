"""A finished or replayed game's review: which moves lost the mover much of their
chances, what was better, and each side's summary. Pure Python, no Django.

Each moment's analysis gives dark's chances and the strongest level's move. A move
is judged by what it cost its mover: their chances in the position before it, less
their chances after it. As lichess judges by the loss of winning chances, a loss of
at least 10 points is an inaccuracy, 20 a mistake and 30 a blunder; the level's own
move is never marked, whatever the estimates say of it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

# The least loss of each judgement, worst first.
THRESHOLDS = (("blunder", 0.30), ("mistake", 0.20), ("inaccuracy", 0.10))
JUDGEMENTS = tuple(name for name, _ in reversed(THRESHOLDS))
PASS = "Pass"
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@dataclass(frozen=True, slots=True)
class Judgement:
    """One marked move: ply ``ply`` (``move``, by ``color``) lost ``loss`` of its
    mover's chances where ``best`` was the strongest level's move."""

    ply: int
    color: str
    move: str
    best: str
    loss: float
    kind: str

    @property
    def percent(self) -> int:
        return round(100 * self.loss)

    @property
    def symbol(self) -> str:
        return SYMBOLS[self.kind]

    @property
    def text(self) -> str:
        return f"{self.move} lost {self.percent}%: {self.best} was best"

    @property
    def before(self) -> int:
        """The moment the move was played from, where the better move is shown."""
        return self.ply - 1

    @property
    def kind_words(self) -> str:
        """The judgement with its article: "an inaccuracy", "a mistake", "a blunder"."""
        return f"{'an' if self.kind[0] in 'aeiou' else 'a'} {self.kind}"


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side's moves as the review counts them."""

    color: str
    judged: int  # moves with an estimate before and after
    inaccuracies: int
    mistakes: int
    blunders: int
    average_loss: float  # over the judged moves, gains counting as no loss

    @property
    def average_percent(self) -> float:
        return round(100 * self.average_loss, 1)


@dataclass(frozen=True, slots=True)
class Review:
    judgements: tuple[Judgement, ...]
    sides: tuple[SideSummary, ...]

    def of(self, ply: int) -> Judgement | None:
        return next((each for each in self.judgements if each.ply == ply), None)


def judgement_of(loss: float) -> str:
    """The judgement a loss earns, or "" for none."""
    return next((name for name, least in THRESHOLDS if loss >= least - 1e-9), "")


def review(
    estimates: Sequence[float | None],
    best_moves: Sequence[str],
    plays: Sequence[tuple[str, str]],
) -> Review:
    """Judge the moves of a game. ``estimates[i]`` is dark's chances after ``i`` moves
    (None where not analysed), ``best_moves[i]`` the level's move there ("" if none),
    ``plays[i]`` the side and notation of ply ``i + 1``. A pass is never judged: it is
    played for a side that has no move."""
    judgements = []
    losses: dict[str, list[float]] = {"dark": [], "light": []}
    for index, (color, move) in enumerate(plays[: len(estimates) - 1]):
        before, after, best = estimates[index], estimates[index + 1], best_moves[index]
        if before is None or after is None or not best or move == PASS:
            continue
        loss = 0.0 if move == best else max(0.0, before - after)
        if color == "light":
            loss = 0.0 if move == best else max(0.0, after - before)
        losses[color].append(loss)
        if kind := judgement_of(loss):
            judgements.append(Judgement(index + 1, color, move, best, loss, kind))
    counts = Counter((each.color, each.kind) for each in judgements)
    sides = tuple(
        SideSummary(
            color=color,
            judged=len(losses[color]),
            inaccuracies=counts[color, "inaccuracy"],
            mistakes=counts[color, "mistake"],
            blunders=counts[color, "blunder"],
            average_loss=sum(losses[color]) / len(losses[color]) if losses[color] else 0.0,
        )
        for color in ("dark", "light")
    )
    return Review(tuple(judgements), sides)
