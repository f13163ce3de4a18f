"""Property tests: random games on every rule set, checked against a plain model.

The model below re-implements the rules of RULES.md in the most direct way there
is (a dict of squares, loops over neighbours, no bit tricks) and walks beside the
engine through every game: both must agree on the board, the legal moves, the
score and the record at every position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from game.engine import (
    PASS,
    SQUARES,
    IllegalMoveError,
    Move,
    Position,
    Rules,
    Score,
    Stone,
)
from tests.support.exact import RULE_SETS


def rules_id(rules: Rules) -> str:
    return "-".join(
        [
            "specials" if rules.special_stones else "plain",
            rules.scoring,
            "wrap" if rules.wraparound else "flat",
        ]
    )


# --- A plain model of the rules ------------------------------------------------------

COLUMNS = "ABCDEFG"
NAMES = [f"{column}{row}" for row in range(1, 8) for column in COLUMNS]
KIND_LETTER = {"stone": "S", "thunder": "T", "woden": "W"}


def neighbours(name: str, wrap: bool) -> list[str | None]:
    """North, west, east, south of a square; None for a side on the board's edge."""
    column, row = COLUMNS.index(name[0]), int(name[1]) - 1
    found: list[str | None] = []
    for d_row, d_column in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        r, c = row + d_row, column + d_column
        if wrap:
            r, c = r % 7, c % 7
        if 0 <= r < 7 and 0 <= c < 7:
            found.append(f"{COLUMNS[c]}{r + 1}")
        else:
            found.append(None)
    return found


@dataclass
class Model:
    rules: Rules
    cells: dict[str, str] = field(default_factory=lambda: dict.fromkeys(NAMES, "."))
    turn: str = "d"
    hand: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        if self.rules.special_stones:
            self.hand = {"T", "W", "t", "w"}

    @property
    def wrap(self) -> bool:
        return self.rules.wraparound

    def colour(self, name: str) -> str | None:
        cell = self.cells[name]
        if cell == ".":
            return None
        return "d" if cell.isupper() else "l"

    def hinges(self, name: str) -> int:
        count = 0
        for near in neighbours(name, self.wrap):
            if near is None or self.cells[near] != ".":
                count += 1
        return count

    def stone_fits(self, name: str) -> bool:
        if self.cells[name] != ".":
            return False
        if self.hinges(name) > 3:
            return False
        for near in neighbours(name, self.wrap):
            if near is not None and self.cells[near] != "." and self.hinges(near) + 1 > 3:
                return False
        return True

    def letter(self, kind: str, side: str) -> str:
        return kind if side == "d" else kind.lower()

    def placements(self, side: str) -> list[str]:
        """The moves ``side`` could make if it were to move, in the engine's order."""
        moves = [name for name in NAMES if self.stone_fits(name)]
        if self.letter("T", side) in self.hand:
            moves += [f"T {name}" for name in NAMES if self.cells[name] == "."]
        if self.letter("W", side) in self.hand:
            other = "l" if side == "d" else "d"
            moves += [f"W {name}" for name in NAMES if self.colour(name) == other]
        return moves

    def legal(self) -> list[str]:
        mine = self.placements(self.turn)
        if mine:
            return mine
        other = "l" if self.turn == "d" else "d"
        return ["Pass"] if self.placements(other) else []

    def play(self, text: str) -> str:
        """Play a legal move; return its record text."""
        side = self.turn
        self.turn = "l" if side == "d" else "d"
        if text == "Pass":
            return text
        if text.startswith("T "):
            name = text[2:]
            removed = [
                near
                for near in neighbours(name, self.wrap)
                if near is not None and self.cells[near] != "."
            ]
            for near in removed:
                self.cells[near] = "."
            self.cells[name] = self.letter("T", side)
            self.hand.discard(self.letter("T", side))
            return text + ("x" + "/".join(removed) if removed else "")
        if text.startswith("W "):
            name = text[2:]
            self.cells[name] = self.letter("W", side)
            self.hand.discard(self.letter("W", side))
            return text
        self.cells[text] = self.letter("S", side)
        return text

    def score(self) -> tuple[int, int]:
        points = {"d": 0, "l": 0}
        for name in NAMES:
            side = self.colour(name)
            if side is None:
                continue
            for near in neighbours(name, self.wrap):
                if near is None:
                    if self.rules.scoring == "standard":
                        points[side] += 2  # halved below with the pairs
                elif self.colour(near) == side:
                    points[side] += 1  # each pair is seen from both of its stones
        assert points["d"] % 2 == 0 and points["l"] % 2 == 0
        return points["d"] // 2, points["l"] // 2

    def text(self) -> str:
        rows = ["".join(self.cells[f"{c}{r}"] for c in COLUMNS) for r in range(1, 8)]
        hand = "".join(letter for letter in "TWtw" if letter in self.hand) or "-"
        return f"{'/'.join(rows)} {self.turn} {hand}"


# --- The checks ----------------------------------------------------------------------

ALL_MOVES = [
    Move(kind, square) for kind in (Stone.STONE, Stone.THUNDER, Stone.WODEN) for square in SQUARES
]


def check_position(pos: Position, model: Model, record: list[str]) -> None:
    rules = pos.rules
    # The engine and the model see the same position.
    assert pos.to_text() == model.text()
    assert Position.from_text(pos.to_text(), rules) == pos
    # No stone ever has four hinges; hinge counts agree on every square.
    for name in NAMES:
        assert pos.hinges(name) == model.hinges(name)
        if model.cells[name] != ".":
            assert model.hinges(name) <= 3, f"{name} has four hinges in {pos.to_text()}"
    # The score is a plain recount.
    score = pos.score()
    assert isinstance(score, Score)
    assert tuple(score) == model.score()
    # The record replays to the same position.
    assert list(pos.record) == record
    again = Position.replay(rules, pos.record)
    assert again == pos
    assert again.record == pos.record
    # Legal moves: as the model says, empty only at the end.
    legal = pos.legal_moves()
    texts = [str(m) for m in legal]
    assert texts == model.legal()
    assert (legal == []) == pos.is_over
    assert (legal == [PASS]) == pos.must_pass
    if pos.is_over:
        dark, light = score
        assert pos.result == ("dark" if dark > light else "light" if light > dark else "tie")
    else:
        assert pos.winner is None and pos.result is None
    # Every listed move plays; every other move is refused and changes nothing.
    listed = set(legal)
    before = pos.to_text()
    for move in [*ALL_MOVES, PASS]:
        reason = pos.why_illegal(move)
        if move in listed:
            assert reason is None
            after = pos.play(move)
            assert after.last_move == move
            assert after.ply == pos.ply + 1
            assert after.turn is pos.turn.opponent
        else:
            assert isinstance(reason, str) and reason
            with pytest.raises(IllegalMoveError):
                pos.play(move)
            with pytest.raises(IllegalMoveError):
                pos.play(str(move))
    assert pos.to_text() == before


def choose(legal: list[Move], keep_specials: bool, draw: Callable[[int], int]) -> Move:
    """A move from ``legal``; ``keep_specials`` plays normal stones while one fits.

    Keeping the special stones for late in the game is what leads to passes: uniform
    random play spends them early and almost never has to pass.
    """
    stones = [move for move in legal if move.stone is Stone.STONE]
    pool = stones if keep_specials and stones else legal
    return pool[draw(len(pool))]


def play_random_game(rules: Rules, data: st.DataObject) -> None:
    pos = Position.start(rules)
    model = Model(rules)
    record: list[str] = []
    keep_specials = data.draw(st.booleans(), label="keep special stones")
    while True:
        try:
            check_position(pos, model, record)
        except AssertionError:
            note(f"position {pos.to_text()!r} ({rules_id(rules)}), record {pos.record}")
            raise
        legal = pos.legal_moves()
        if not legal:
            break
        move = choose(legal, keep_specials, lambda n: data.draw(st.integers(0, n - 1)))
        pos = pos.play(move)
        record.append(model.play(str(move)))


# The quick profile does not shrink: shrinking replays whole checked games and can take
# minutes; the note above names the failing position instead. The slow one shrinks.
QUICK = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
THOROUGH = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("rules", RULE_SETS, ids=rules_id)
@QUICK
@given(data=st.data())
def test_random_games_follow_the_rules(rules, data):
    play_random_game(rules, data)


@pytest.mark.slow
@THOROUGH
@given(rules=st.sampled_from(RULE_SETS), data=st.data())
def test_many_random_games_follow_the_rules(rules, data):
    play_random_game(rules, data)


@settings(max_examples=40, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    rules=st.sampled_from(RULE_SETS),
    keep_specials=st.booleans(),
)
def test_whole_games_agree_with_the_model_move_by_move(rng, rules, keep_specials):
    # Cheaper than the test above (no replay, no refused moves): more games per second.
    pos, model = Position.start(rules), Model(rules)
    while pos.legal_moves():
        assert [str(m) for m in pos.legal_moves()] == model.legal()
        move = choose(pos.legal_moves(), keep_specials, rng.randrange)
        pos = pos.play(move)
        assert pos.record[-1] == model.play(str(move))
    assert model.legal() == []
    assert pos.to_text() == model.text()
    assert tuple(pos.score()) == model.score()


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), rules=st.sampled_from(RULE_SETS))
def test_the_scoring_sides_of_the_stones_add_up_to_the_score(rng, rules):
    """Each side a stone scores by is shown: edges once, friendly pairs on both stones."""
    pos = Position.start(rules)
    for _ in range(rng.randrange(70)):
        if pos.is_over:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    for color in ("dark", "light"):
        edges = pairs = 0
        for square in range(49):
            on = pos.stone_at(square)
            if on is None or on[0] != color:
                assert on is not None or pos.scoring_sides(square) == ""
                continue
            row, col = divmod(square, 7)
            for side in pos.scoring_sides(square):
                dr, dc = {"n": (-1, 0), "w": (0, -1), "e": (0, 1), "s": (1, 0)}[side]
                on_board = 0 <= row + dr < 7 and 0 <= col + dc < 7
                if on_board or rules.wraparound:
                    pairs += 1
                else:
                    edges += 1
        assert edges + pairs / 2 == getattr(pos.score(), color)
