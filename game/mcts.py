"""Monte Carlo tree search for any game, with an optional MCTS-Solver. Engine only, no
Django.

The search (UCT, Kocsis and Szepesvári 2006) grows a tree of positions from the one
to move in, one node per iteration: it walks down the tree choosing the child with
the best upper confidence bound, adds one child, plays the game on from it (the
game's playout), and counts dark's result (1 a win, ½ a tie or draw, 0 a loss, or
anything between, as the game's playout values it) in every node on the way back up,
each node's ``wins`` for the side that moved into it.

A game gives the tree what it knows as a ``Knowledge``: its moves in the order the
tree should add them with a prior for each (progressive bias, Chaslot et al. 2008,
adds ``bias · prior / (visits + 1)`` to the bound), its playout, which side moved
into a position and, optionally, a proof of a position (MCTS-Solver, Winands,
Björnsson and Saito 2008: a node whose side to move wins at once is lost for the side
that moved into it; proofs then climb the tree). How a game's ladder is built on it
(a few levels that play at a glance, others that search a number of playouts or a
time) is told in docs/DESIGN.md, "A game's ladder".

Progressive widening lets a node of n visits have only ``1 + widening·√n`` children,
best-valued first, so that a tree over forty-odd moves a position still goes deep.

The loop is the hot path of every move a computer plays, so it asks the game as
little as it can: a node's moves once (on its second visit, most leaves get only
one), a playout an iteration, and a node's mover and proof once, when it is made.
``make bench`` measures it with each game's playouts (``bench/engine.py``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from game.thinking import moves_to_choose

__all__ = [
    "LOST",
    "WON",
    "Knowledge",
    "Node",
    "best_child",
    "grow",
    "search_move",
]

WON, LOST = 1, -1  # proofs, for the side that moved into a node

# The bound of a child not yet visited (a root's, where every move enters at once):
# above any visited child's, so each is tried once, the best prior first.
UNVISITED = 10.0


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a game tells the tree of its positions.

    - ``moves(position)``: the legal moves with a prior each (0 to about 1; 0 for
      none), as ``(prior, move)`` pairs in the order the tree adds them, the first
      to add last, as the tree pops them; [] once the game is over.
    - ``playout(position, rng)``: dark's result of playing on from ``position``, 0
      to 1; on a finished position, its result (drawing nothing from ``rng``).
    - ``dark_moved(position)``: True when dark made the move that led to it.
    - ``prove(position)``: optional, ``WON`` or ``LOST`` when the position is known
      (the game over, or a win at once for the side to move) for the side that
      moved into it, else 0.
    - ``play(position, move)``: optional, the position after a move ``moves``
      listed, unchecked (an engine's own ``_after``), where checking it again would
      cost; left out, ``position.play(move)``.
    """

    moves: Callable[[Any], list[tuple[float, Any]]]
    playout: Callable[[Any, random.Random], float]
    dark_moved: Callable[[Any], bool]
    prove: Callable[[Any], int] | None = None
    play: Callable[[Any, Any], Any] | None = None


class Node:
    """A position in the tree. ``wins`` count for the side that moved into it
    (``dark`` True when that was dark); so does ``proven``: ``WON``, ``LOST`` or 0
    while unproven."""

    __slots__ = (
        "bias",
        "children",
        "dark",
        "move",
        "position",
        "proven",
        "untried",
        "visits",
        "wins",
    )

    def __init__(self, position: Any, move: Any, bias: float) -> None:
        self.position = position
        self.move = move
        self.bias = bias
        self.children: list[Node] = []
        self.untried: list[tuple[float, Any]] | None = None  # listed on the second visit
        self.visits = 0
        self.wins = 0.0
        self.proven = 0
        self.dark = False


def best_child(root: Node) -> Node:
    """The child to play: a proven win, else the most visited child not proven lost
    (more wins breaking a tie), or when all are lost the most visited one (the loss
    may take the longest)."""
    for child in root.children:
        if child.proven == WON:
            return child
    alive = [child for child in root.children if child.proven != LOST] or root.children
    return max(alive, key=lambda child: (child.visits, child.wins))


def grow(
    position: Any,
    rng: random.Random,
    knowledge: Knowledge,
    *,
    playouts: int | None = None,
    deadline: float | None = None,
    exploration: float,
    bias: float,
    widening: float | None,
    solver: bool = False,
    whole_root: bool = False,
    root_moves: Sequence[Any] | None = None,
    parent_shift: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Node, int]:
    """The search tree of ``position`` after ``playouts`` iterations or at
    ``deadline`` (at least one iteration, so that a late start still gives a searched
    move), or once the root is proven; and the number of iterations run.

    The bound is ``wins / n + exploration·√(ln(N + parent_shift) / n) + bias ·
    prior / (n + 1)`` for a child of n visits under a node of N. With ``solver`` the
    game's proofs are used: proven nodes are not searched below, a child proven lost
    is never chosen, and the search stops once the root is proven. With
    ``whole_root`` every root move (of ``root_moves`` when given) enters the tree at
    once, each proven or not on the spot, and a move proven to win ends the search
    before it starts (``parent_shift`` 1 then keeps the root's first bound defined).
    """
    moves, playout, dark_moved, prove = (
        knowledge.moves,
        knowledge.playout,
        knowledge.dark_moved,
        knowledge.prove,
    )
    play = knowledge.play or (lambda position, move: position.play(move))

    def make(parent: Node, move: Any, prior: float) -> Node:
        after = play(parent.position, move)
        node = Node(after, move, prior)
        node.dark = dark_moved(after)
        if prove is not None:
            node.proven = prove(after)
        return node

    root = Node(position, None, 0.0)
    if whole_root:
        root.untried = []
        for prior, move in moves(position):
            if root_moves is None or move in root_moves:
                root.children.append(make(root, move, prior))
        if solver and any(child.proven == WON for child in root.children):
            return root, 0
    else:
        root.untried = moves(position)
    log, sqrt = math.log, math.sqrt
    iterations = 0
    while True:
        if playouts is not None and iterations >= playouts:
            break
        if deadline is not None and iterations & 15 == 1 and clock() >= deadline:
            break
        if solver and root.proven:
            break
        iterations += 1
        node = root
        path = [root]
        # Selection and expansion: down the tree by the bound until a node may take a
        # new child (the best-valued move not yet in the tree), or the game ends.
        while True:
            if solver and node.proven:
                break
            if node.untried is None:
                node.untried = moves(node.position)
            children = node.children
            if node.untried and (
                widening is None or len(children) < 1 + widening * sqrt(node.visits)
            ):
                prior, move = node.untried.pop()
                node = make(node, move, prior)
                children.append(node)
                path.append(node)
                break
            if not children:
                break
            scale = exploration * sqrt(log(node.visits + parent_shift))
            best_score = -1e9
            chosen = None
            for child in children:
                if solver and child.proven == LOST:
                    continue
                visits = child.visits
                if visits:
                    score = (
                        child.wins / visits
                        + scale / sqrt(visits)
                        + bias * child.bias / (visits + 1)
                    )
                else:
                    score = UNVISITED + child.bias
                if score > best_score:
                    chosen, best_score = child, score
            if chosen is None:  # every child is lost (the backup proves it so)
                break
            node = chosen
            path.append(node)
        if solver and node.proven:
            result = 1.0 if (node.proven == WON) == node.dark else 0.0
        else:
            result = playout(node.position, rng)
        # Backpropagation, proving on the way up.
        for visited in reversed(path):
            visited.visits += 1
            if visited.move is not None:
                visited.wins += result if visited.dark else 1.0 - result
            if solver and not visited.proven and visited.children:
                if any(child.proven == WON for child in visited.children):
                    visited.proven = LOST
                elif (
                    visited.untried is not None
                    and not visited.untried
                    and all(child.proven == LOST for child in visited.children)
                ):
                    visited.proven = WON
    return root, iterations


def search_move(
    position: Any,
    rng: random.Random,
    search_tree: Callable[..., tuple[Node, Any]],
    pick: Callable[[Any], Any],
    *,
    listing: Callable[[Any], list[Any]] = moves_to_choose,
    **options: Any,
) -> tuple[Any, int]:
    """The move a game's search plays in ``position``, and the number of iterations
    run: the only move at once (no iteration), else the ``pick``ed child of the root
    of ``search_tree(position, rng, **options)``, the game's own tree. ``listing`` lists
    the moves, in any order (a game's own unsorted list spares the sorting of
    ``legal_moves``). Raises ``ValueError`` on a finished game."""
    moves = listing(position)
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    if len(moves) == 1:
        return moves[0], 0
    root, iterations = search_tree(position, rng, **options)
    return pick(root).move, iterations
