"""Taking a seat: a friend game's invite (its code, a new one), joining its free seat
and giving a seat a new token."""

from __future__ import annotations

from typing import Any

from django.core.signing import salted_hmac
from django.db import transaction
from django.utils.crypto import constant_time_compare

from game import clocks
from game.models import Game, Seat
from game.play.base import Tokens, check_seat, locked, seated_colors, timed
from game.refusals import AlreadySeated, GameFinished, NotSeated, PlayError
from game.surface import (
    Color,
)
from game.tokens import new_seat_token


def invite_code(game: Game) -> str:
    """The secret of a friend game's invite link (128 bits, derived, never stored);
    each renewal (``renew_invite``) gives another."""
    renewed = f":{game.invite_version}" if game.invite_version else ""
    return salted_hmac("maerstanas.invite", f"{game.public_id}{renewed}").hexdigest()[:32]


def renew_invite(public_id: str, tokens: Tokens) -> Game:
    """Give a friend game waiting for its friend a new invite link: the old one, if it
    leaked, takes nobody's seat. Only its player may, and only while the seat is free."""
    with transaction.atomic():
        game = locked(public_id)
        if game.is_over:
            raise GameFinished("the game is over: nobody can join it")
        if not seated_colors(game, tokens):
            raise NotSeated("only this game's player can renew its invite")
        if game.mode != Game.Mode.FRIEND or game.free_seat() is None:
            raise PlayError("both seats are taken: there is no invite to renew")
        game.invite_version += 1
        game.save_change("invite_version")
    return game


def join(
    public_id: str,
    invite: str = "",  # pragma: no mutate (a missing invite and a wrong one are refused alike)
    previous: Tokens | None = None,
    held: Tokens | None = None,
    user: Any = None,
) -> tuple[Game, str, str]:
    """Take the free seat of a friend game; return (game, colour, token).

    Allowed with the game's invite code, or, for a rematch, to whoever held the other
    seat of the previous game (``previous`` holds this browser's tokens for it), but
    not to whoever holds a seat of this game already (``held``, or the account
    ``user`` holding one, whatever the caller passes: one person is not two players)
    nor once the game is over. ``user`` is the joiner's account, if they are logged
    in: a rated game's seat is only for one. Raises ``PlayError`` when the seat is
    taken, the invite is wrong or the joiner may not join.
    """
    with transaction.atomic():
        game = locked(public_id)
        if game.is_over:
            raise GameFinished("the game is over: you can watch it, but not join it")
        # Its creator holds one seat; a browser that opened the other's seat link beside
        # its own holds both; an account holds its seats on every device and program.
        seated = seated_colors(game, held or {}) | _colors_of(game, user)
        if seated:
            sides = " and ".join(sorted(seated))
            raise AlreadySeated(
                f"you play {sides} in this game already: send the invite to a friend"
            )
        color = game.free_seat()
        if color is None:
            raise NotSeated("both seats are taken: you can watch this game")
        invited = bool(invite) and constant_time_compare(invite, invite_code(game))
        old = game.rematch_of
        # In a rematch the colours swap: who held the other colour before takes this seat.
        returning = old is not None and old.holds_seat(
            Color(color).opponent, (previous or {}).get(Color(color).opponent.value)
        )
        if not (invited or returning):
            raise NotSeated("this invite is not valid for this game")
        if game.rated and user is None:
            raise NotSeated("this is a rated game, between accounts: log in or sign up to join it")
        token = new_seat_token()
        seat = Seat.person(game, color, token, user)
        seat.save()
        game.took_seats([seat])
        game.status = Game.Status.ACTIVE
        game.save_change("status", *clocks.turn_begins(game, clocks.now()))
        timed(game)
    return game, color, token


def _colors_of(game: Game, user: Any) -> set[str]:
    """The colours whose seats the account ``user`` holds in ``game`` (none for a guest)."""
    if user is None:
        return set()
    return {color for color, seat in game.seats_by_color().items() if seat.user_id == user.pk}


def renew_seat(public_id: str, tokens: Tokens, color: str) -> tuple[Game, str]:
    """Give ``color``'s seat a new token, which only this browser learns; return the
    game and the token. The old one, and every link made of it, stops working: a
    player whose private link leaked takes their seat back."""
    with transaction.atomic():
        game = locked(public_id)
        # No token and a wrong one are refused alike.
        held = tokens.get(color, "")  # pragma: no mutate
        check_seat(game, color, held)
        token = new_seat_token()
        seat = game.seat(color)
        # Only the hash of the token is taken from the new seat, which is never saved.
        seat.token_hash = Seat.person(game, color, token).token_hash  # pragma: no mutate
        # A seat's other fields never change once it is made: saving them too writes the same.
        seat.save(update_fields=["token_hash"])  # pragma: no mutate
        game.save_change()
    return game, token
