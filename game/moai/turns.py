"""Moai's turns on the bitboards, for the engine, its figures and the computer
players: whether a Moai has a turn at all (``can_move``), whether a turn written as
its three cells is one (``is_turn``), and every turn of a Moai (``turns``).

A counter goes on any empty cell of one of the Moai's rays; the Moai then goes
straight along that line (away from the counter, or toward it but short of it) or,
from a row or a column (any line on the hexagon), runs along it and ends with one
step turned 45° (60°). Pure Python, standard library only.
"""

from __future__ import annotations

from game.moai.notation import Geometry, Move

__all__ = ["can_move", "is_turn", "turns"]


def can_move(geo: Geometry, cell: int, occupied: int) -> bool:
    """True if the Moai on ``cell`` has a whole turn: some empty cell in line with it
    for the counter, then a step it may take. ``occupied`` holds the counters and
    both Moai.

    A bent move begins with a straight step, so a straight move is enough: the Moai
    steps to an empty neighbour along a line when a counter may go on that line
    behind it (a push) or beyond that neighbour (a pull)."""
    free = ~occupied
    steps = geo.steps[cell]
    masks = geo.ray_masks[cell]
    opposite = geo.opposite
    for d, near in enumerate(steps):
        if near is None or occupied >> near & 1:
            continue
        if masks[opposite[d]] & free or masks[d] & free & ~(1 << near):
            return True
    return False


def is_turn(geo: Geometry, counter: int, origin: int, target: int, occupied: int) -> bool:
    """True if a counter on ``counter`` then the Moai on ``origin`` to ``target`` is a
    turn (``origin`` must hold a Moai): the counter empty and in line, the Moai's
    straight or bent path clear. A few steps along two rays, not the list of turns."""
    if occupied >> counter & 1:
        return False
    line = geo.line_of[origin].get(counter)
    if line is None:
        return False
    after = occupied | 1 << counter
    rays = geo.rays[origin]
    steps = geo.steps
    for run in (line, geo.opposite[line]):
        bends = geo.turns[run]
        for cell in rays[run]:
            if after >> cell & 1:
                break
            if cell == target:
                return True
            for e in bends:
                if steps[cell][e] == target:
                    return not after >> target & 1
    return False


def turns(geo: Geometry, mover: int, occupied: int) -> list[Move]:
    """Every turn that moves the Moai on ``mover``: each counter in line with it, each
    with the Moai's straight and bent moves. ``occupied`` holds the counters and both
    Moai. In no promised order."""
    found: list[Move] = []
    rays = geo.rays[mover]
    opposite = geo.opposite
    bends = geo.turns
    steps = geo.steps
    make = geo.move
    for d, ray in enumerate(rays):
        if not ray:
            continue
        back = rays[opposite[d]]
        # Away from a counter on this ray: the free run behind the Moai, and the bends
        # off it; the counter never stands there, so they serve every counter.
        push = []
        for cell in back:
            if occupied >> cell & 1:
                break
            push.append(cell)
        away = list(push)
        toward_turns = bends[d]
        away_turns = bends[opposite[d]]
        if away_turns:
            for cell in push:
                for e in away_turns:
                    at = steps[cell][e]
                    if at is not None and not occupied >> at & 1:
                        away.append(at)
        # Toward the counter: the free run along the ray, short of the counter.
        run = []
        for cell in ray:
            if occupied >> cell & 1:
                break
            run.append(cell)
        toward_bent = []
        if toward_turns:
            for cell in run:
                bent = []
                for e in toward_turns:
                    at = steps[cell][e]
                    if at is not None and not occupied >> at & 1:
                        bent.append(at)
                toward_bent.append(bent)
        for j, counter in enumerate(ray):
            if occupied >> counter & 1:
                continue
            for target in away:
                found.append(make(counter, mover, target))
            reach = j if j < len(run) else len(run)
            for i in range(reach):
                found.append(make(counter, mover, run[i]))
                if toward_turns:
                    for target in toward_bent[i]:
                        found.append(make(counter, mover, target))
    return found
