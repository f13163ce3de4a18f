"""The lessons of ``/learn/``: short explanations, each on a real board with a task
that the engine checks.

Engine only, no Django: a lesson is a position and a test of one move. The page
draws the position with the same code as a game, the player plays a move on it,
and ``attempt`` says whether the move does what the task asks, or why not, in a
player's words. Nothing is saved: the move travels in the page's address.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.grid import (
    parse_square,
)
from game.maerstanas.engine import Position, Rules
from game.maerstanas.notation import PASS, Move, Stone, parse_move
from game.surface import (
    Color,
)
from game.teaching import Attempt, BaseLesson, Check
from game.teaching import attempt as try_on_board


@dataclass(frozen=True, slots=True)
class Lesson(BaseLesson):
    """A Mǽrstánas lesson (``game.teaching.BaseLesson``), on a board of its rules."""

    stone: Stone = Stone.STONE  # the kind of stone chosen when the lesson opens
    hinges: bool = False  # draw each stone's scoring hinges
    rules: Rules = Rules()  # a variant's lesson plays by its rules

    @property
    def position(self) -> Position:
        return Position.from_text(self.start, self.rules)

    def attempt(self, text: str) -> Attempt:
        """Try the move written ``text`` on this lesson's board (``attempt``)."""
        return attempt(self, text)


def attempt(lesson: Lesson, text: str) -> Attempt:
    """Try the move written ``text`` on ``lesson``'s board: after a legal move the
    passes it forces are played, as in a game (``game.teaching.attempt``)."""
    return try_on_board(lesson, text, parse_move, _passes)


def _passes(position: Position) -> Position:
    while position.must_pass:  # as a game plays them
        position = position.play(PASS)
    return position


# Helpers for the checks: what a move did, in words ----------------------------------------

SIDES = ("north", "west", "east", "south")


def gain(before: Position, after: Position, color: Color) -> int:
    """The points ``color`` gained from ``before`` to ``after`` (negative for a loss)."""
    return getattr(after.score(), color.value) - getattr(before.score(), color.value)


def lead(position: Position, color: Color) -> int:
    """How far ``color`` is ahead (negative: behind)."""
    score = position.score()
    mine = getattr(score, color.value)
    return mine - (score.light if color is Color.DARK else score.dark)


def points(n: int) -> str:
    return f"{n} point" if abs(n) == 1 else f"{n} points"


def hinges_in_words(position: Position, square: int) -> str:
    """The hinges of the stone on ``square``: "2 hinges (north: the edge, west: a light
    stone)". On the flat board, as every lesson's is."""
    row, column = divmod(square, 7)
    found = []
    # SIDES and the steps are both four long: zip meets no ragged end to check.
    for side, (dr, dc) in zip(
        SIDES,
        ((-1, 0), (0, -1), (0, 1), (1, 0)),
        strict=True,  # pragma: no mutate
    ):
        r, c = row + dr, column + dc
        if not (0 <= r < 7 and 0 <= c < 7):
            found.append(f"{side}: the edge")
        elif (stone := position.stone_at(r * 7 + c)) is not None:
            found.append(f"{side}: a {stone[0].value} stone")
    count = len(found)
    listed = f" ({', '.join(found)})" if found else ""
    return f"{count} hinge{'' if count == 1 else 's'}{listed}"


def best_reply(position: Position) -> tuple[Move | None, int]:
    """The side to move's move that gains it the most points now, and that gain."""
    color = position.turn
    best: tuple[Move | None, int] = (None, 0)
    for move in position.legal_moves():
        if move.is_pass:
            # A pass is only ever the one legal move: stopping here or going on is the same.
            continue  # pragma: no mutate
        points_gained = gain(position, position.play(move), color)
        if best[0] is None or points_gained > best[1]:
            best = (move, points_gained)
    return best


def net_after_reply(position: Position, move: Move) -> int:
    """What ``move`` gains the side to move, less the most the opponent gains in reply."""
    after = position.play(move)
    return gain(position, after, position.turn) - best_reply(after)[1]


def _needs(stone: Stone, move: Move) -> str | None:
    if move.stone is not stone:
        names = {Stone.THUNDER: "thunder-stone", Stone.WODEN: "Woden-stone"}
        return f"That was a plain stone: choose your {names[stone]} above the board first"
    return None


# The checks ------------------------------------------------------------------------------


def _three_hinges(before: Position, after: Position, move: Move) -> str | None:
    if after.hinges(move.square) == 3:
        return None
    return (
        f"Your stone on {move} has {hinges_in_words(after, move.square)}. "
        "Look for a square with three sides already taken by stones or the edge"
    )


def _next_to_d4(before: Position, after: Position, move: Move) -> str | None:
    if move.square in NEXT_TO_D4:
        return None
    return f"{move} is not next to D4: a stone next to it shares one of its four sides"


NEXT_TO_D4 = frozenset(map(parse_square, ("D3", "C4", "E4", "D5")))


def _closes_b1(before: Position, after: Position, move: Move) -> str | None:
    # Squares are read in either case.
    if move.square == parse_square("B1"):  # pragma: no mutate
        return "Taking B1 stops light too, but this task is to close B1 without playing on it"
    if not after.is_legal("B1"):  # pragma: no mutate (read in either case, as above)
        return None
    return (
        f"Light can still play B1 and score 3 points there: a stone on {move} "
        "leaves B1 and its neighbours with a free side"
    )


def _clears_three_light(before: Position, after: Position, move: Move) -> str | None:
    if needs := _needs(Stone.THUNDER, move):
        return needs
    cleared = after.last_removed
    light = [sq for sq in cleared if before.stone_at(sq)[0] is Color.LIGHT]
    if len(light) >= 3:
        return None
    if not cleared:
        return f"Your thunder-stone on {move.square} cleared nothing: no stone was next to it"
    return (
        f"Your thunder-stone on {move.square} cleared {', '.join(map(str, cleared))}: "
        f"{len(light)} light. Look for a square with three light stones around it"
    )


def _best_woden(before: Position, after: Position, move: Move) -> str | None:
    if needs := _needs(Stone.WODEN, move):
        return needs
    best = max(
        lead(before.play(m), Color.DARK) for m in before.legal_moves() if m.stone is Stone.WODEN
    )
    if lead(after, Color.DARK) == best:
        return None
    return (
        f"Taking {move.square} gains you {points(gain(before, after, Color.DARK))} and costs "
        f"light {points(-gain(before, after, Color.LIGHT))}: another light stone does better"
    )


def _light_passes(before: Position, after: Position, move: Move) -> str | None:
    if after.history[-1].move.is_pass:
        return None
    if move.stone is Stone.THUNDER:
        return "Keep your thunder-stone: find the plain stone after which light has no open square"
    return f"After {move} light still has a square to play: find the stone that closes them all"


def _mind_the_reply(before: Position, after: Position, move: Move) -> str | None:
    best = max(net_after_reply(before, m) for m in before.legal_moves())
    if net_after_reply(before, move) == best:
        return None
    reply, light_gain = best_reply(after)
    got = gain(before, after, Color.DARK)
    return (
        f"{move} scores you {points(got)}, but light answers {reply} and scores "
        f"{points(light_gain)}. Find a move that scores and leaves light less"
    )


def _scores_most(where: str) -> Check:
    """The check of a task to score the most points with a plain stone; ``where``
    says where to look, after a move that scores less."""

    def check(before: Position, after: Position, move: Move) -> str | None:
        best = max(
            gain(before, before.play(m), Color.DARK)
            for m in before.legal_moves()
            if m.stone is Stone.STONE
        )
        got = gain(before, after, Color.DARK)
        if got == best:
            return None
        return f"{move} scores {points(got)}; one square scores {points(best)}. {where}"

    return check


_most_points = _scores_most("Remember the edge: a side on it scores too")


def _breaks_most(before: Position, after: Position, move: Move) -> str | None:
    if needs := _needs(Stone.THUNDER, move):
        return needs
    least = min(
        after_thunder.score().light
        for after_thunder in (before.play(m) for m in before.legal_moves())
        if after_thunder.last_move is not None and after_thunder.last_move.stone is Stone.THUNDER
    )
    cost = -gain(before, after, Color.LIGHT)
    if after.score().light == least:
        return None
    cleared = len(after.last_removed)
    return (
        f"Your thunder-stone on {move.square} cleared {cleared} stone"
        f"{'' if cleared == 1 else 's'} and cost light {points(cost)}. Look for light's "
        "pairs: a stone in two pairs is worth more to light than two stones alone"
    )


def _scores_and_closes(before: Position, after: Position, move: Move) -> str | None:
    got = gain(before, after, Color.DARK)
    # E1 is closed once light may not play it (taken, or a fourth hinge).
    closed = not after.is_legal("E1")  # pragma: no mutate (squares are read in either case)
    if closed and got >= 2:
        return None
    if move.square == parse_square("E1"):
        return f"Taking E1 stops light, but scores you only {points(got)}: close it from nearby"
    if closed:
        return (
            f"{move} closes E1, but scores you only {points(got)}: "
            "one move closes it and scores two"
        )
    return (
        f"{move} scores you {points(got)}, but light can still play E1 and score 3 points "
        "there. Which stone next to E1 could you bring to three hinges?"
    )


def _rows(*rows: str) -> str:
    """The board part of a position text, written as seven rows for the eye."""
    return "/".join(rows)


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        slug="hinges",
        title="Hinges",
        text=(
            "Two players, dark and light, take turns placing stones on the 7×7 board. Dark begins.",
            "Each square has four sides. A side is a hinge when it touches a stone, of "
            "either colour, or the edge of the board. A corner already has two hinges "
            "and an edge square one.",
        ),
        task="Place a dark stone that has three hinges.",
        start=_rows(".......", "......S", "...S...", "..s.S..", ".......", ".......", "s......")
        + " d -",
        check=_three_hinges,
        praise="Three hinges. D4 has three stones around it, and G1 two edges and a stone.",
    ),
    Lesson(
        slug="fourth-hinge",
        title="The fourth hinge that may never be",
        text=(
            "A stone may never have four hinges: one of its sides must always stay free. "
            "The rules call a stone with four hinges frǽcenes, danger, and never allow it.",
            "So a square whose four sides are all hinges is closed. And a square is closed "
            "when a stone there would give a stone next to it its fourth hinge.",
            "Closed squares are hatched. Hover over one, focus it or tap it to read why.",
        ),
        task="Place a stone next to the light stone on D4.",
        start=_rows(".......", ".......", "....s..", "..Ss.S.", ".sS.s..", "..s....", ".......")
        + " d -",
        check=_next_to_d4,
        praise=(
            "D3 was the only open one. E4 would have four hinges itself, and a stone on D5 "
            "would give C5 its fourth."
        ),
    ),
    Lesson(
        slug="closed-squares",
        title="Closing squares",
        text=(
            "A closed square is closed for both players, and stays closed until a "
            "thunder-stone clears a stone next to it.",
            "So you can close a square on purpose: give it its fourth hinge, or bring a "
            "stone next to it up to three hinges.",
        ),
        task="Light would score three points on B1. Close B1 with one dark stone.",
        start=_rows("s.sS...", ".......", ".......", "...S.s.", ".......", ".......", ".......")
        + " d -",
        check=_closes_b1,
        praise=(
            "B1 is closed. There were three ways: B2 gives B1 its fourth hinge, A2 gives A1 "
            "its third and C2 gives C1 its third."
        ),
    ),
    Lesson(
        slug="thunder",
        title="The thunder-stone",
        text=(
            "Once a game, instead of a stone, you may play your thunder-stone. It may go on "
            "any empty square, even a closed one.",
            "It clears every stone next to it, of both colours. Then it stays, and hinges "
            "and scores like a stone.",
        ),
        task="Clear three light stones with your thunder-stone.",
        start=_rows(".......", ".S.....", "...s...", "..s.s..", "...S...", ".s.....", "s.s....")
        + " d T",
        check=_clears_three_light,
        praise=(
            "Three light stones are gone. D4 clears three light stones and one of yours; "
            "B7 clears three light stones and none of yours."
        ),
        stone=Stone.THUNDER,
    ),
    Lesson(
        slug="woden",
        title="The Woden-stone",
        text=(
            "Once a game you may replace one of your opponent's stones with your "
            "Woden-stone. It becomes yours and scores for you.",
            "The hinges do not change, so a Woden-stone is never refused for them.",
        ),
        task="Take the light stone that puts you furthest ahead.",
        start=_rows(".......", ".......", "...S...", "..SsS..", ".......", "......s", "......s")
        + " d W",
        check=_best_woden,
        praise=(
            "G7 swings five points: you gain its two edges, and light loses them and its "
            "pair with G6. D4 gains you three, but costs light nothing."
        ),
        stone=Stone.WODEN,
    ),
    Lesson(
        slug="passing-and-the-end",
        title="Passing and the end",
        text=(
            "When you cannot move but your opponent can, your turn is passed for you and "
            "the move list says Pass. This happens when you have no special stone left and "
            "every empty square is closed.",
            "The game ends when neither side can move, and the higher score wins. Ties happen.",
        ),
        task=(
            "Light has no special stone left; you still hold your thunder-stone. Play the "
            "stone after which light has to pass."
        ),
        start=_rows(".s.Ss.S", ".SsS.sS", "s.s.Ss.", "S.sSS..", "s.sSsSs", "Ss...SS", ".sSssS.")
        + " d T",
        check=_light_passes,
        praise=(
            "After A2 light had to pass, and it is your turn again. The game goes on while your "
            "thunder-stone can still be played; after that neither side can move and the "
            "game ends."
        ),
    ),
    Lesson(
        slug="scoring",
        title="Scoring",
        text=(
            "You score a point for each hinge between two of your own stones (a pair counts "
            "once) and for each side of your stone on the edge of the board. Hinges with "
            "your opponent's stones score nothing.",
            "The marks on the stones here show each side that scores. Any game can show them too.",
        ),
        task="Place the stone that scores the most points.",
        start=_rows("S.S....", ".......", "...S...", "..s....", "...S...", "....s..", ".......")
        + " d -",
        check=_most_points,
        praise="B1 scores three points: two pairs and the edge. D4, in the centre, gives two.",
        hinges=True,
    ),
    Lesson(
        slug="first-tip",
        title="A first tip: mind the reply",
        text=(
            "The move that scores the most now is not always the best. Before you play, "
            "look at the squares your opponent wants, and what your move leaves them.",
            "Taking a square, or closing it, can be worth more than points of your own.",
        ),
        task="Play the move that leaves you best off after light's best answer.",
        start=_rows("s.s....", ".......", "S..S...", "..s....", "...S...", ".......", ".......")
        + " d -",
        check=_mind_the_reply,
        praise=(
            "A2 scores two points and closes B1, where light would have scored three: "
            "A1 now has three hinges."
        ),
        hinges=True,
    ),
    Lesson(
        slug="simple-scoring",
        title="Simple scoring",
        text=(
            "A game may be played with simple scoring, chosen when it starts: only the "
            "hinges between two of your own stones score. The edge of the board still "
            "hinges, and still closes squares, but scores nothing.",
            "So the corners and edges are worth less, and a square among your own stones more.",
        ),
        task="With simple scoring, place the stone that scores the most points.",
        start=_rows(".S.....", ".......", "...S...", "..S.S..", ".......", ".......", "s.....s")
        + " d -",
        check=_scores_most(
            "Only pairs of your own stones score: look for three of them around a square"
        ),
        praise=(
            "D4 makes three pairs: three points. A1, with its two edges, would score three "
            "with standard scoring; here only its pair with B1 counts."
        ),
        hinges=True,
        rules=Rules(scoring="simple"),
    ),
    Lesson(
        slug="wraparound",
        title="Wraparound",
        text=(
            "In the wraparound variant the board has no edges: each edge joins the one "
            "opposite. A2's west side meets G2, and B1's north side meets B7. Squares, "
            "hinges, closed squares and thunder-stones all wrap.",
            "With no edges to score, only pairs of your own stones do, across the joins too.",
        ),
        task="On this wraparound board, place the stone that scores the most points.",
        start=_rows(".......", "..s....", "......S", "S......", ".......", "....s..", ".......")
        + " d -",
        check=_scores_most("A stone on one edge pairs with the stone on the square opposite"),
        praise=(
            "G4 and A3 each make two pairs, one of them across the join: G4's east side meets "
            "A4, and A3's west side meets G3."
        ),
        hinges=True,
        rules=Rules(wraparound=True),
    ),
    Lesson(
        slug="break-the-pairs",
        title="Strategy: break the pairs",
        text=(
            "A stone on its own, away from the edge, scores nothing. A stone in three "
            "pairs holds three points.",
            "So the thunder-stone is worth most where it breaks the most pairs, not where it "
            "clears the most stones.",
        ),
        task="Play your thunder-stone where it costs light the most points.",
        start=_rows(".......", "...sss.", "....s..", ".......", ".s.s...", "..s....", "S......")
        + " d T",
        check=_breaks_most,
        praise=(
            "E1 clears a single stone, E2, and light loses all three of its points: E2 was in "
            "every pair. C5 would clear three stones that scored nothing."
        ),
        stone=Stone.THUNDER,
        hinges=True,
    ),
    Lesson(
        slug="score-and-close",
        title="Strategy: score and close at once",
        text=(
            "Some squares are worth much more to your opponent than to you. Closing one "
            "(giving it, or a stone next to it, the hinges that forbid it) takes those "
            "points away.",
            "The best moves do two things: score for you and close a square for them.",
        ),
        task="Light would score three points on E1. Close E1 with a stone that scores you two.",
        start=_rows("..Ss.s.", "..S....", "...S...", ".......", ".......", ".......", ".......")
        + " d -",
        check=_scores_and_closes,
        praise=(
            "D2 pairs with C2 and D3, and gives D1 its third hinge: a stone on E1 would now "
            "be D1's fourth, so E1 is closed to both sides."
        ),
        hinges=True,
    ),
)

BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}
