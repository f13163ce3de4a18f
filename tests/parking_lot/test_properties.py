"""Parking Lot's engine against a plain model of its rules (``tests/parking_lot/model.py``):
along games chosen by hypothesis, both list the same turns, reach the same boards and
end with the same result; and what the engine refuses, it refuses with a reason."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.parking_lot import IllegalMoveError, Position
from tests.parking_lot.model import Model

CHECKED = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@CHECKED
@given(data=st.data())
def test_the_engine_and_the_model_agree_along_a_game(data: st.DataObject) -> None:
    pos, model = Position.start(), Model.start()
    while True:
        legal = [str(move) for move in pos.legal_moves()]
        assert legal == model.turns()
        assert pos.count_moves() == len(legal)
        assert pos.to_text() == model.board_text()
        assert (tuple(pos.outcome()) if pos.outcome() else None) == model.result()
        if not legal:
            break
        # Drives are most of the list: ask for one half the time, so games drive.
        drives = [text for text in legal if " " in text]
        pick_from = drives if drives and data.draw(st.booleans(), label="drive") else legal
        text = data.draw(st.sampled_from(pick_from), label="turn")
        pos, model = pos.play(text), model.play(text)
    assert pos.is_over and len(pos.record) == 16


@CHECKED
@given(data=st.data())
def test_every_turn_the_engine_refuses_it_explains(data: st.DataObject) -> None:
    pos = Position.start()
    for _ in range(data.draw(st.integers(0, 15), label="turns")):
        pos = pos.play(data.draw(st.sampled_from(pos.legal_moves())))
    legal = {str(move) for move in pos.legal_moves()}
    squares = st.sampled_from([f"{c}{r}" for c in "ABCDEFGH" for r in range(1, 9)])
    for _ in range(30):
        place, origin, target = data.draw(st.tuples(squares, squares, squares))
        for text in (place, f"{place} {origin}-{target}"):
            reason = pos.why_illegal(text)
            assert (reason is None) == (text in legal)
            if reason is not None:
                try:
                    pos.play(text)
                except IllegalMoveError as error:
                    assert reason in str(error)
                else:
                    raise AssertionError(f"{text} was played though {reason}")
