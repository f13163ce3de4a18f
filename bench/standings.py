"""The arena's results: a pairing's row (wins, ties and losses of its first player,
the time each side spent a move), the Elo difference its score means with its 95%
interval, the cross-table, and saved rows merged with new ones (``--update``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Row:
    """A pairing's results so far, for the first player."""

    pairing: str
    wins: int = 0
    ties: int = 0
    losses: int = 0
    time: dict[str, list[float]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.wins + self.ties + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.ties / 2) / self.games

    @property
    def clipped(self) -> bool:
        """True when the score is 0 or 1, which has no finite Elo."""
        return self.wins == self.games or self.losses == self.games

    def elo(self) -> tuple[float, float, float]:
        """The Elo difference the score means, and its 95% interval.

        The interval is the normal approximation of the mean score, from the standard
        error of the per-game scores (1, ½, 0). A score of 0 or 1 is held half a game
        in (and its per-game spread taken as that score's), so that it has an Elo.
        """
        n = self.games
        p = min(max(self.score, 0.5 / n), 1 - 0.5 / n)
        mean_square = (self.wins + self.ties / 4) / n
        variance = mean_square - self.score**2 or p * (1 - p)
        error = 1.96 * math.sqrt(variance / n)
        low, high = max(p - error, 0.5 / n), min(p + error, 1 - 0.5 / n)
        return _elo(p), _elo(low), _elo(high)

    def as_dict(self) -> dict[str, object]:
        """The row as plain values, for ``--json``."""
        first, second = self.pairing.split(":")
        elo, low, high = self.elo()
        return {
            "pairing": self.pairing,
            "games": self.games,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "score": round(self.score, 4),
            "elo": round(elo),
            "elo_95": [round(low), round(high)],
            "elo_clipped": self.clipped,
            "seconds_per_move": {
                first: round(self.mean_seconds(first), 4),
                second: round(self.mean_seconds(second), 4),
            },
        }

    @classmethod
    def from_dict(cls, saved: dict[str, Any]) -> Row:
        """A row as ``as_dict`` saved it (its mean times a move, not their sums)."""
        return cls(
            saved["pairing"],
            saved["wins"],
            saved["ties"],
            saved["losses"],
            {player: [seconds, 1] for player, seconds in saved["seconds_per_move"].items()},
        )

    def plus(self, other: Row) -> Row:
        """This row and ``other``'s games of the same pairing together (the mean times
        a move weighted by games, as a saved row keeps only its means)."""
        games = self.games + other.games
        time = {
            player: [
                (self.mean_seconds(player) * self.games + other.mean_seconds(player) * other.games)
                / games,
                1,
            ]
            for player in {*self.time, *other.time}
        }
        return Row(
            self.pairing,
            self.wins + other.wins,
            self.ties + other.ties,
            self.losses + other.losses,
            time,
        )

    def mean_seconds(self, player: str) -> float:
        total, moves = self.time.get(player, [0.0, 0])
        return total / moves if moves else 0.0


def _elo(score: float) -> float:
    return -400 * math.log10(1 / score - 1)


def table(rows: list[Row]) -> str:
    """The cross-table, one row a pairing."""
    lines = [
        f"{'pairing':<28} {'games':>5} {'W':>4} {'T':>4} {'L':>4} {'score':>7} "
        f"{'Elo':>6} {'95% interval':>15} {'s/move':>14}",
    ]
    for row in rows:
        first, second = row.pairing.split(":")
        elo, low, high = row.elo()
        times = f"{row.mean_seconds(first):.3f}/{row.mean_seconds(second):.3f}"
        lines.append(
            f"{first + ' v ' + second:<28} {row.games:>5} {row.wins:>4} {row.ties:>4} "
            f"{row.losses:>4} {row.score:>6.1%} {elo:>+6.0f} {f'[{low:+.0f}, {high:+.0f}]':>15} "
            f"{times:>14}{' *' if row.clipped else ''}"
        )
    if any(row.clipped for row in rows):
        lines.append("* a score of 0% or 100%: its Elo is that of half a game less (or more)")
    return "\n".join(lines)


def merged(saved: list[dict[str, Any]], rows: list[Row]) -> list[Row]:
    """The saved rows (``as_dict``) with those of ``rows``' pairings replaced in place,
    and ``rows``' other pairings added at the end."""
    fresh = {row.pairing: row for row in rows}
    kept = [fresh.pop(old["pairing"], None) or Row.from_dict(old) for old in saved]
    return [*kept, *fresh.values()]
