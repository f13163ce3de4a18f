"""The replay of a game's page: the steps back and forth through its moves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class Step(NamedTuple):
    """A link of the replay's controls: ``url`` is "" where there is no such moment."""

    url: str
    label: str


@dataclass(frozen=True, slots=True)
class Replay:
    """Where the page is in the game's moves, and the links to step through them."""

    ply: int  # the moment shown: the position after this many moves
    last: int  # the game's ply now
    first_step: Step
    back: Step
    forward: Step
    live: Step  # the game as it is now

    @property
    def reviewing(self) -> bool:
        return self.ply < self.last


def replay_steps(page_url: str, ply: int, last: int) -> Replay:
    """The replay controls for the moment ``ply`` of a game at ``last``."""

    def at(target: int, label: str, allowed: bool) -> Step:
        if not allowed:
            return Step("", label)
        return Step(page_url if target >= last else f"{page_url}?ply={target}", label)

    return Replay(
        ply=ply,
        last=last,
        first_step=at(0, "First position", ply > 0),
        back=at(ply - 1, "Back a move", ply > 0),
        forward=at(ply + 1, "Forward a move", ply < last),
        live=at(last, "The game now", ply < last),
    )
