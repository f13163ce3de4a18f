"""Positions from readable diagrams, for the engine's tests. No Django."""

from __future__ import annotations

from game.engine import Position, Rules

_BOARD_CHARS = set(".STWstw")

# A checkerboard: a stone on every square whose column + row is even (25 stones,
# the four corners included). Every empty square then has four hinges: an inner
# one four stone neighbours, an edge one its edge side and three stones. No stone
# touches another, so each stone has only its edge sides as hinges (at most two).
# Row 1 is light, the rest dark.
# With only light's thunder-stone in hand (``hand="t"``), dark must pass.
CHECKERBOARD = """
    s . s . s . s
    . S . S . S .
    S . S . S . S
    . S . S . S .
    S . S . S . S
    . S . S . S .
    S . S . S . S
"""


def board(
    diagram: str, to_move: str = "d", hand: str = "-", rules: Rules | None = None
) -> Position:
    """Build a position from a readable 7×7 diagram.

    Rows 1..7 from top to bottom, columns A..G from left to right; each square one of
    ``. S T W s t w`` (upper case dark, lower case light). Blank lines and whitespace
    between the characters are ignored, so a diagram may be written as::

        board('''
            . . . . . . .
            . . . S . . .
            ...
        ''')

    ``to_move`` is ``"d"`` or ``"l"``; ``hand`` the special stones in hand (``"TWtw"``,
    ``"-"`` for none), as in the position text of RULES.md.
    """
    rows = ["".join(line.split()) for line in diagram.strip().splitlines()]
    rows = [row for row in rows if row]
    assert len(rows) == 7, f"a diagram has 7 rows, got {len(rows)}: {rows}"
    for number, row in enumerate(rows, start=1):
        assert len(row) == 7, f"row {number} of the diagram has {len(row)} squares: {row!r}"
        assert set(row) <= _BOARD_CHARS, f"row {number} of the diagram has a bad square: {row!r}"
    return Position.from_text(f"{'/'.join(rows)} {to_move} {hand}", rules or Rules())
