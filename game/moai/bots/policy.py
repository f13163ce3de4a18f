"""What the Moai search knows of the game: how free each Moai is, the evaluation
built on it, a quick random turn, the moves' priors and the playouts. Engine only,
no Django.

The game is about room. A player loses when his own Moai has no turn, which comes
when the cells around it are filled, so each side wants room around its own Moai
and less around the other: a counter dropped next to the enemy Moai, the enemy
Moai pulled into a pocket, one's own Moai pushed into the open.

- ``room``: the empty cells next to a Moai, counted twice, and those two steps
  away, once;
- ``evaluate``: white's chances from the difference of the two Moai's room;
- ``random_turn``: a turn drawn in a few steps, without listing every turn (a Moai,
  a line with an empty neighbour, a run, perhaps a bend, and a counter that allows
  it), for the playouts;
- ``playout``: ``PLAYOUT_PLIES`` quick turns, the side to move losing as soon as
  his Moai is stuck, then the evaluation: a cut-off playout, so that the search
  reaches ten thousand playouts a second in Python.
"""

from __future__ import annotations

import math
import random

from game.moai.engine import Position, can_move
from game.moai.notation import Geometry, Move

__all__ = [
    "PLAYOUT_PLIES",
    "evaluate",
    "move_values",
    "playout",
    "random_turn",
    "room",
    "valued_turns",
    "winning_move",
]

# Quick turns played before the evaluation judges a playout.
PLAYOUT_PLIES = 4
# How steeply the evaluation turns a difference of room into chances.
STEEPNESS = 0.25


def _rings(geo: Geometry) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each cell's neighbours, and the cells two steps away, as bitmasks."""
    near = tuple(sum(1 << n for n in geo.board.neighbours(cell)) for cell in geo.board.cells)
    far = []
    for cell in geo.board.cells:
        mask = 0
        for n in geo.board.neighbours(cell):
            mask |= near[n]
        far.append(mask & ~near[cell] & ~(1 << cell))
    return near, tuple(far)


_RINGS = {}


def rings(geo: Geometry) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``_rings`` of a board, built once."""
    found = _RINGS.get(geo.name)
    if found is None:
        found = _RINGS[geo.name] = _rings(geo)
    return found


def room(geo: Geometry, cell: int, occupied: int) -> int:
    """How free the Moai on ``cell`` is: its empty neighbours twice, the empty cells
    two steps away once."""
    near, far = rings(geo)
    free = ~occupied
    return 2 * (near[cell] & free).bit_count() + (far[cell] & free).bit_count()


def evaluate(geo: Geometry, white: int, black: int, occupied: int, turn: int) -> float:
    """White's chances, 0 to 1, with ``turn`` (0 white, 1 black) to move: a stuck
    Moai to move has lost; else the more room one's own Moai has than the other,
    the better."""
    if not can_move(geo, (white, black)[turn], occupied):
        return 0.0 if turn == 0 else 1.0
    edge = room(geo, white, occupied) - room(geo, black, occupied)
    return 0.5 + 0.5 * math.tanh(STEEPNESS * edge)


def random_turn(
    geo: Geometry, white: int, black: int, occupied: int, turn: int, rng: random.Random
) -> tuple[int, int, int] | None:
    """A quick turn of the side ``turn``: (counter, origin, target), or None when no
    try found one. It moves the mover's own Moai two times in three, and runs one
    or two cells, bending now and then; not every turn is as likely as every other."""
    steps, rays, opposite, bends = geo.steps, geo.rays, geo.opposite, geo.turns
    randrange = rng.randrange
    own, other = (white, black) if turn == 0 else (black, white)
    for _ in range(6):
        origin = own if randrange(3) else other
        count = len(steps[origin])
        run = randrange(count)
        first = steps[origin][run]
        if first is None or occupied >> first & 1:
            continue
        # Pushed: the counter behind; pulled: the counter beyond the landing.
        pushed = randrange(2)
        behind = rays[origin][opposite[run]] if pushed else rays[origin][run][1:]
        if not behind:
            continue
        counter = behind[randrange(len(behind))]
        if occupied >> counter & 1:
            continue
        target = first
        if not pushed and counter == rays[origin][run][1]:
            bends_here = ()
        else:
            second = steps[first][run]
            if (
                second is not None
                and second != counter
                and not occupied >> second & 1
                and randrange(2)
            ):
                target = second
            bends_here = bends[run]
        if bends_here and not randrange(3):
            turned = steps[target][bends_here[randrange(len(bends_here))]]
            if turned is not None and not occupied >> turned & 1:
                target = turned
        return counter, origin, target
    return None


def playout(position: Position, rng: random.Random, plies: int = PLAYOUT_PLIES) -> float:
    """White's result of ``plies`` quick turns from ``position``: 1 or 0 when a Moai
    to move is stuck, else the evaluation of where it stopped."""
    geo = position.geometry
    white, black = position.moai
    turn = position._turn
    if white is None or black is None:
        return 0.5
    occupied = position.counters | 1 << white | 1 << black
    for _ in range(plies):
        if not can_move(geo, black if turn else white, occupied):
            return 0.0 if turn == 0 else 1.0
        found = random_turn(geo, white, black, occupied, turn, rng)
        if found is None:
            break
        counter, origin, target = found
        occupied = occupied ^ 1 << origin | 1 << target | 1 << counter
        if origin == white:
            white = target
        else:
            black = target
        turn = 1 - turn
    return evaluate(geo, white, black, occupied, turn)


# A move's prior by the difference of room it leaves, as ``evaluate`` turns it into
# chances.
_SPAN = 40
_PRIORS = tuple(0.5 + 0.5 * math.tanh(STEEPNESS * edge) for edge in range(-_SPAN, _SPAN + 1))


def move_values(position: Position, moves: list[Move]) -> list[float]:
    """Each move's prior, 0 to 1: how much room it leaves the mover's Moai against the
    other's, as ``room`` counts it (a placement: the room of its cell).

    Many turns share a landing and differ by the counter only, so each landing's room
    is counted once, and each counter then takes from the room of the Moai it stands
    next to (two) or two steps from (one)."""
    geo = position.geometry
    white, black = position.moai
    occupied = position.occupied
    near, far = rings(geo)
    if white is None or black is None:
        free = ~occupied
        return [
            0.5
            + 0.02 * (2 * (near[m.target] & free).bit_count() + (far[m.target] & free).bit_count())
            for m in moves
        ]
    sign = 1 if position._turn == 0 else -1
    landed: dict[tuple[int, int], tuple[int, int, int]] = {}
    priors = _PRIORS
    values = []
    for move in moves:
        origin, target = move.origin, move.target
        found = landed.get((origin, target))
        if found is None:
            free = ~(occupied ^ 1 << origin | 1 << target)
            w, b = (target, black) if origin == white else (white, target)
            edge = (
                2 * (near[w] & free).bit_count()
                + (far[w] & free).bit_count()
                - 2 * (near[b] & free).bit_count()
                - (far[b] & free).bit_count()
            )
            found = landed[(origin, target)] = (edge, w, b)
        edge, w, b = found
        counter = move.counter
        if near[w] >> counter & 1:
            edge -= 2
        elif far[w] >> counter & 1:
            edge -= 1
        if near[b] >> counter & 1:
            edge += 2
        elif far[b] >> counter & 1:
            edge += 1
        # Room is at most 32 a Moai, so the table's ends are never passed.
        values.append(priors[sign * edge + _SPAN])
    return values


def _edge(
    near: tuple[int, ...], far: tuple[int, ...], lifted: int, whites: bool, other: int, target: int
) -> int:
    """White's room less black's once a Moai lands on ``target`` (the white one when
    ``whites``), ``other`` the Moai that stays, ``lifted`` every piece but the mover."""
    free = ~(lifted | 1 << target)
    w, b = (target, other) if whites else (other, target)
    return (
        2 * (near[w] & free).bit_count()
        + (far[w] & free).bit_count()
        - 2 * (near[b] & free).bit_count()
        - (far[b] & free).bit_count()
    )


def valued_turns(position: Position) -> list[tuple[float, Move]]:
    """Every turn with its prior, as ``move_values`` gives them, in no promised order:
    the engine's walk of the turns (``engine.turns``), with each landing's room
    counted once and each counter's share once, for the search's nodes."""
    geo = position.geometry
    white, black = position.moai
    occupied = position.occupied
    near, far = rings(geo)
    priors = _PRIORS
    sign = 1 if position._turn == 0 else -1
    rays_of, opposite, bends, steps, make = geo.rays, geo.opposite, geo.turns, geo.steps, geo.move
    found: list[tuple[float, Move]] = []
    for mover in (white, black):
        rays = rays_of[mover]
        lifted = occupied ^ 1 << mover
        other = black if mover == white else white

        whites = mover == white

        for d, ray in enumerate(rays):
            if not ray:
                continue
            away = []
            for cell in rays[opposite[d]]:
                if occupied >> cell & 1:
                    break
                away.append(cell)
            for cell in away[:]:
                for e in bends[opposite[d]]:
                    at = steps[cell][e]
                    if at is not None and not occupied >> at & 1:
                        away.append(at)
            run = []
            for cell in ray:
                if occupied >> cell & 1:
                    break
                run.append(cell)
            toward = []
            for cell in run:
                landings = [cell]
                for e in bends[d]:
                    at = steps[cell][e]
                    if at is not None and not occupied >> at & 1:
                        landings.append(at)
                toward.append(landings)
            away_edges = [(t, _edge(near, far, lifted, whites, other, t)) for t in away]
            toward_edges = [
                [(t, _edge(near, far, lifted, whites, other, t)) for t in group] for group in toward
            ]
            for j, counter in enumerate(ray):
                if occupied >> counter & 1:
                    continue
                # The counter takes room from each Moai it stands near; the moved one's
                # cell decides which is which for each landing, so both are tried.
                share_other = (
                    2 if near[other] >> counter & 1 else 1 if far[other] >> counter & 1 else 0
                )
                for target, edge in away_edges:
                    own = (
                        2 if near[target] >> counter & 1 else 1 if far[target] >> counter & 1 else 0
                    )
                    shift = share_other - own if whites else own - share_other
                    found.append(
                        (priors[sign * (edge + shift) + _SPAN], make(counter, mover, target))
                    )
                for group in toward_edges[: min(j, len(run))]:
                    for target, edge in group:
                        own = (
                            2
                            if near[target] >> counter & 1
                            else 1
                            if far[target] >> counter & 1
                            else 0
                        )
                        shift = share_other - own if whites else own - share_other
                        found.append(
                            (priors[sign * (edge + shift) + _SPAN], make(counter, mover, target))
                        )
    return found


def winning_move(position: Position, *, pockets: bool = True) -> Move | None:
    """A turn after which the other side's Moai is stuck, so that it wins at once, or
    None (also while placing and once the game is over). Only turns that leave that
    Moai two empty neighbours or fewer are tried: with more, some line is nearly
    always open. Without ``pockets`` (the search's quick look, at every node it
    adds) none is looked for unless that Moai has three empty neighbours or fewer
    now, so that a Moai pulled from the open into a pocket is missed."""
    if position.is_over or position.is_placing:
        return None
    geo = position.geometry
    white, black = position.moai
    turn = position._turn
    enemy = black if turn == 0 else white
    occupied = position.occupied
    near, _ = rings(geo)
    if not pockets and (near[enemy] & ~occupied).bit_count() > 3:
        return None
    for move in position.moves():
        target = move.target
        after = occupied ^ 1 << move.origin | 1 << target | 1 << move.counter
        moved = target if move.origin == enemy else enemy
        if (near[moved] & ~after).bit_count() > 2:
            continue
        if not can_move(geo, moved, after):
            return move
    return None
