"""A plain model of Cyngesheall's rules, for the engine's tests.

Written straight from the rule book (shared/CYNGESHEALL.md), as plainly as it reads and
sharing no code with ``game.cyngesheall``: the board is a 7×7 list of rows of letters
(``K C S`` dark, ``k c s`` light, ``.`` empty; row 0 is row 1 of the board, the top),
moves are found by walking square by square, captures by looking at the four
neighbours of the square the piece landed on. Slow on purpose: it only has to be
obviously right.
"""

from __future__ import annotations

from collections.abc import Iterator

COLUMNS = "ABCDEFG"
START_TEXT = "...sssk/....scs/.....ss/S.....s/SS...../SCS..../KSSS... d 0"

# The four orthogonal steps in the order the record lists captures: north (toward
# row 1), west (toward column A), east, south.
ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))
DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))
# Each king's goal is the other king's starting corner: dark's G1, light's A7.
GOAL = {"d": (0, 6), "l": (6, 0)}
SIXTY = 60


def square_name(row: int, col: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def coords(name: str) -> tuple[int, int]:
    name = name.strip().upper()
    return int(name[1:]) - 1, COLUMNS.index(name[0])


def on_board(row: int, col: int) -> bool:
    return 0 <= row < 7 and 0 <= col < 7


def side_of(letter: str) -> str | None:
    if letter == ".":
        return None
    return "d" if letter.isupper() else "l"


def opponent(side: str) -> str:
    return "l" if side == "d" else "d"


def king_of(side: str) -> str:
    return "K" if side == "d" else "k"


class Model:
    """One position of a game: the board, who moves, the quiet plies, and every
    (board, side to move) of the game so far for the repetition rule."""

    def __init__(
        self,
        grid: list[list[str]],
        turn: str,
        quiet: int,
        seen: tuple[tuple[str, str], ...],
        outcome: tuple[str, str] | None,
        record: tuple[str, ...],
        captured: tuple[str, ...] = (),
    ) -> None:
        self.grid = grid
        self.turn = turn
        self.quiet = quiet
        self.seen = seen
        self.outcome = outcome
        self.record = record
        self.captured = captured  # what the last move took, north, west, east, south
        self._moves: list[tuple[str, str]] | None = None  # worked out when first asked

    # --- Reading and writing -------------------------------------------------------

    @classmethod
    def start(cls) -> Model:
        return cls.from_text(START_TEXT)

    @classmethod
    def from_text(cls, text: str) -> Model:
        """A position from its text; no checks beyond the shape (the tests feed it good
        texts). A side to move with no move has lost already."""
        board, turn, quiet = text.split()
        grid = [list(row) for row in board.split("/")]
        assert len(grid) == 7 and all(len(row) == 7 for row in grid), text
        assert turn in ("d", "l"), text
        model = cls(grid, turn, int(quiet), (), None, ())
        model.seen = ((model.board_key(), turn),)
        if not model.can_move(turn):
            model.outcome = (opponent(turn), "no-moves")
        return model

    def board_key(self) -> str:
        return "/".join("".join(row) for row in self.grid)

    def text(self) -> str:
        return f"{self.board_key()} {self.turn} {self.quiet}"

    def at(self, name: str) -> str:
        row, col = coords(name)
        return self.grid[row][col]

    def pieces(self) -> dict[str, str]:
        """Every occupied square's name and letter."""
        return {
            square_name(row, col): self.grid[row][col]
            for row in range(7)
            for col in range(7)
            if self.grid[row][col] != "."
        }

    def score(self) -> tuple[int, int]:
        letters = "".join(self.pieces().values())
        dark = sum(1 for letter in letters if letter.isupper())
        return dark, len(letters) - dark

    # --- Moves -----------------------------------------------------------------------

    def slides(self, row: int, col: int) -> Iterator[tuple[int, int]]:
        """Every empty square the piece on (row, col) reaches along an empty line."""
        letter = self.grid[row][col]
        steps = ORTHOGONAL + DIAGONAL if letter in "Cc" else ORTHOGONAL
        for d_row, d_col in steps:
            r, c = row + d_row, col + d_col
            while on_board(r, c) and self.grid[r][c] == ".":
                yield r, c
                r, c = r + d_row, c + d_col

    def all_moves(self, side: str) -> list[tuple[str, str]]:
        """Every move of ``side``'s pieces, whether or not the game is over, ordered by
        origin square (row-major from A1), then target square."""
        found = []
        for row in range(7):
            for col in range(7):
                if side_of(self.grid[row][col]) == side:
                    for r, c in self.slides(row, col):
                        found.append((row * 7 + col, r * 7 + c))
        found.sort()
        return [(square_name(*divmod(a, 7)), square_name(*divmod(b, 7))) for a, b in found]

    def can_move(self, side: str) -> bool:
        """Whether any piece of ``side`` has a move."""
        return any(
            next(self.slides(row, col), None) is not None
            for row in range(7)
            for col in range(7)
            if side_of(self.grid[row][col]) == side
        )

    def moves(self) -> list[tuple[str, str]]:
        """The legal moves: none once the game is over."""
        if self.outcome is not None:
            return []
        if self._moves is None:
            self._moves = self.all_moves(self.turn)
        return self._moves

    def targets(self, name: str) -> list[str]:
        return [target for origin, target in self.moves() if origin == name]

    # --- Playing -----------------------------------------------------------------------

    def play(self, origin: str, target: str) -> Model:
        """The position after a legal move (AssertionError for any other)."""
        mover = self.turn
        o_row, o_col = coords(origin)
        t_row, t_col = coords(target)
        assert self.outcome is None, f"{origin}-{target} after the end: {self.text()}"
        assert side_of(self.grid[o_row][o_col]) == mover, f"{origin}-{target} in {self.text()}"
        assert (t_row, t_col) in self.slides(o_row, o_col), f"{origin}-{target} in {self.text()}"
        grid = [row[:] for row in self.grid]
        grid[t_row][t_col] = grid[o_row][o_col]
        grid[o_row][o_col] = "."

        # Each enemy piece orthogonally next to the landing square goes when the square
        # straight beyond it holds one of the mover's pieces; off the board never helps.
        captured = []
        took_king = False
        for d_row, d_col in ORTHOGONAL:
            n_row, n_col = t_row + d_row, t_col + d_col
            b_row, b_col = n_row + d_row, n_col + d_col
            if not (on_board(n_row, n_col) and on_board(b_row, b_col)):
                continue
            if side_of(grid[n_row][n_col]) == opponent(mover) and side_of(grid[b_row][b_col]) == (
                mover
            ):
                captured.append((n_row, n_col))
        for n_row, n_col in captured:
            if grid[n_row][n_col] == king_of(opponent(mover)):
                took_king = True
            grid[n_row][n_col] = "."
        taken = tuple(square_name(r, c) for r, c in captured)

        turn = opponent(mover)
        quiet = 0 if taken else self.quiet + 1
        after = Model(grid, turn, quiet, (), None, (), taken)
        key = (after.board_key(), turn)
        after.seen = (*self.seen, key)
        text = f"{origin}-{target}" + ("x" + "/".join(taken) if taken else "")
        after.record = (*self.record, text)

        goal_row, goal_col = GOAL[mover]
        if took_king:
            after.outcome = (mover, "king-captured")
        elif grid[goal_row][goal_col] == king_of(mover):
            after.outcome = (mover, "king-home")
        elif after.seen.count(key) >= 3:
            after.outcome = ("draw", "repetition")
        elif quiet >= SIXTY:
            after.outcome = ("draw", "sixty-plies")
        elif not after.can_move(turn):
            after.outcome = (mover, "no-moves")
        return after


def divide(model: Model, depth: int) -> dict[str, int]:
    """``perft`` below each first move, by its text (for finding where counts differ)."""
    return {
        f"{origin}-{target}": perft(model.play(origin, target), depth - 1) if depth > 1 else 1
        for origin, target in model.moves()
    }


def perft(model: Model, depth: int) -> int:
    """Move sequences of ``depth`` plies from ``model``; a finished position has none."""
    moves = model.moves()
    if depth == 1:
        return len(moves)
    return sum(perft(model.play(origin, target), depth - 1) for origin, target in moves)
