"""Every action on a game, one transaction each. Views call these, never the ORM directly.

Seats are passed in as ``tokens``: the seat tokens this browser holds for the game,
by colour (``{"dark": "…"}``). Only the engine decides what a legal move is; this
module checks who may act, writes the move log and refreshes the cached state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import partial

from django.core.signing import salted_hmac
from django.db import IntegrityError, transaction
from django.utils.crypto import constant_time_compare

from game import bots
from game.engine import PASS, Color, Position, Rules
from game.models import Game, Move, hash_token, new_seat_token

Tokens = Mapping[str, str]


class PlayError(Exception):
    """An action refused for a reason the player should read; nothing was changed."""

    status = 400


class GameNotFound(PlayError):
    status = 404


class NotYourTurn(PlayError):
    """The browser holds a seat, but not the one that may act now."""

    status = 409


class NotSeated(PlayError):
    """The browser holds no seat in this game (a watcher, or a wrong link)."""

    status = 403


class StaleMove(PlayError):
    """The game moved on since the page was drawn (double click, old tab)."""

    status = 409


class GameFinished(PlayError):
    status = 409


class NotStarted(PlayError):
    """A friend game starts when both seats are taken; until then nobody moves."""

    status = 409


def invite_code(game: Game) -> str:
    """The secret of a friend game's invite link (128 bits, derived, never stored)."""
    return salted_hmac("maerstanas.invite", game.public_id).hexdigest()[:32]


def revision(public_id: str) -> int | None:
    """How many changes a watching page has seen; None for an unknown game."""
    return Game.objects.revision_of(public_id)


def rematch_of(game: Game) -> Game | None:
    """The rematch started from a finished game, if any."""
    return Game.objects.filter(rematch_of=game).first() if game.is_over else None


def _locked(public_id: str) -> Game:
    game = Game.objects.locked(public_id)
    if game is None:
        raise GameNotFound("there is no such game")
    return game


def finish(game: Game, result: str, end: Game.Status) -> list[str]:
    """End ``game``: ``result`` is ``dark``, ``light`` or ``tie``, ``end`` why it ended.

    The one way a game ends, whatever the reason. Call it under the game's row lock,
    then save the fields it returns with the rest of the change (``save_change``).
    Raises ``GameFinished`` if the game has already ended.
    """
    if game.is_over:
        raise GameFinished("the game is over")
    if end not in Game.ENDED or result not in Game.Result.values:
        raise ValueError(f"a game cannot end with {result!r} because {end!r}")
    game.status = end
    game.result = result
    game.turn = ""
    return ["status", "result", "turn"]


def create_game(
    mode: str,
    rules: Rules,
    creator: str = "dark",
    rematch_of: Game | None = None,
    level: str = "",
) -> tuple[Game, dict[str, str]]:
    """Start a game; return it and the seat tokens of its creator, by colour.

    A hot-seat game gives the creator both seats; a friend game one seat (``creator``
    is ``dark``, ``light`` or ``random``) and leaves the other for the invite; a game
    against the computer one seat, and the other to ``level`` (a ``bots`` level id),
    which thinks at once if it has the first move.
    """
    if mode not in Game.Mode.values:
        raise PlayError(
            f"{mode!r} is not a kind of game: choose hot-seat, play a friend or the computer"
        )
    if creator == "random":
        creator = random.SystemRandom().choice([c.value for c in Color])
    if creator not in Color.__members__.values():
        raise PlayError(f"{creator!r} is not a colour: choose dark, light or random")
    if mode == Game.Mode.COMPUTER and level not in bots.LEVEL_IDS:
        raise PlayError(f"{level!r} is not a level: choose one of {', '.join(bots.LEVEL_IDS)}")
    game = Game(
        mode=mode,
        special_stones=rules.special_stones,
        scoring=rules.scoring,
        wraparound=rules.wraparound,
        rematch_of=rematch_of,
    )
    game.cache_position(Position.start(rules))
    colors = [c.value for c in Color] if mode == Game.Mode.HOTSEAT else [creator]
    tokens = {color: new_seat_token() for color in colors}
    for color, token in tokens.items():
        setattr(game, f"{color}_seat", hash_token(token))
    if mode == Game.Mode.COMPUTER:
        setattr(game, f"{Color(creator).opponent.value}_level", level)
    game.status = Game.Status.ACTIVE if mode != Game.Mode.FRIEND else Game.Status.WAITING
    game.save()
    _computer_replies(game)
    return game, tokens


def _computer_replies(game: Game) -> None:
    """Have the computer think of its move, once the change that gave it the turn is
    saved: a worker does it (``game.computer``), never the request."""
    if game.computer_to_move:
        # game.computer plays its moves through this module, so it is imported here.
        from game import computer

        transaction.on_commit(partial(computer.reply.enqueue, game.public_id, game.ply))


def free_seat(game: Game) -> str | None:
    """The colour nobody holds yet, if any."""
    for color in Color:
        if not game.seat_hash(color):
            return color.value
    return None


def join(
    public_id: str,
    invite: str = "",
    previous: Tokens | None = None,
    held: Tokens | None = None,
) -> tuple[Game, str, str]:
    """Take the free seat of a friend game; return (game, colour, token).

    Allowed with the game's invite code, or, for a rematch, to whoever held the other
    seat of the previous game (``previous`` holds this browser's tokens for it), but
    not to whoever holds a seat of this game already (``held``: one person is not two
    players) nor once the game is over. Raises ``PlayError`` when the seat is taken,
    the invite is wrong or the joiner may not join.
    """
    with transaction.atomic():
        game = _locked(public_id)
        if game.is_over:
            raise GameFinished("the game is over: you can watch it, but not join it")
        if seated := seated_colors(game, held or {}):
            (color,) = seated  # a friend game's creator holds one seat
            raise PlayError(f"you play {color} in this game already: send the invite to a friend")
        color = free_seat(game)
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
        token = new_seat_token()
        setattr(game, f"{color}_seat", hash_token(token))
        game.status = Game.Status.ACTIVE
        game.save_change(f"{color}_seat", "status")
    return game, color, token


def renew_seat(public_id: str, tokens: Tokens, color: str) -> tuple[Game, str]:
    """Give ``color``'s seat a new token, which only this browser learns; return the
    game and the token. The old one, and every link made of it, stops working: a
    player whose private link leaked takes their seat back."""
    with transaction.atomic():
        game = _locked(public_id)
        check_seat(game, color, tokens.get(color, ""))
        token = new_seat_token()
        setattr(game, f"{color}_seat", hash_token(token))
        game.save_change(f"{color}_seat")
    return game, token


def check_seat(game: Game, color: str, token: str) -> None:
    """Raise ``NotSeated`` unless ``token`` is the secret of ``color``'s seat."""
    if color not in Color.__members__.values() or not game.holds_seat(color, token):
        raise NotSeated("this seat link is not valid for this game")


def seated_colors(game: Game, tokens: Tokens) -> set[str]:
    """The colours whose seats these tokens hold."""
    return {c.value for c in Color if game.holds_seat(c, tokens.get(c.value))}


def _check_turn(game: Game, tokens: Tokens, action: str) -> None:
    """Raise unless the game goes on and ``tokens`` hold the seat of the side to move."""
    if game.is_over:
        raise GameFinished("the game is over")
    seated = seated_colors(game, tokens)
    if not seated:
        raise NotSeated(f"you are watching this game: only its players can {action}")
    if game.status == Game.Status.WAITING:
        raise NotStarted("the game starts when your friend joins: send them the invite link")
    if game.turn not in seated:
        raise NotYourTurn(f"it is {game.turn}'s turn")


def make_move(
    public_id: str, tokens: Tokens, text: str, expected_ply: int | str | None = None
) -> Game:
    """Play ``text`` for the side to move, then any automatic pass; return the game.

    ``expected_ply`` is the ply the player saw: when the game has moved on, the move
    is refused with ``StaleMove`` so a double click or a stale tab never plays twice.
    Raises ``PlayError`` subclasses for who may move and ``MoveError`` for the rules.
    """
    with transaction.atomic():
        game = _locked(public_id)
        _check_turn(game, tokens, "move")
        if expected_ply not in (None, "") and str(expected_ply) != str(game.ply):
            raise StaleMove("the board changed since you saw it: look again and choose anew")
        # The cached position is rewritten with every move in the same transaction
        # (tests check it always equals a replay of the log), so it can stand in for
        # the replay here, under the row lock.
        _record(game, Position.from_text(game.position_text, game.rules).play(text))
    return game


def computer_move(public_id: str, ply: int, text: str) -> Game | None:
    """Play the computer's move ``text``, thought out for the game at ``ply``.

    Returns None, changing nothing, when the game is no longer at that ply or not
    the computer's to move: the reply was played already (a task run twice), or the
    player resigned. That makes a reply happen once per ply, however many workers
    thought of it.
    """
    with transaction.atomic():
        game = _locked(public_id)
        if not game.computer_to_move or game.ply != ply:
            return None
        _record(game, Position.from_text(game.position_text, game.rules).play(text))
    return game


def _record(game: Game, position: Position) -> None:
    """Log the moves from the game's cached position to ``position``, plus any
    automatic pass, and save the change: under the game's row lock.

    ``position`` was set up from the cached text, which has no history, so its
    ``history`` holds just the moves played now.
    """
    while position.must_pass:
        position = position.play(PASS)
    played = position.history
    try:
        Move.objects.bulk_create(
            Move(game=game, ply=ply, notation=move.text, color=move.color)
            for ply, move in enumerate(played, start=game.ply + 1)
        )
    except IntegrityError:
        raise StaleMove("the board changed since you saw it: look again") from None
    changed = game.cache_position(position, [move.text for move in played])
    if position.is_over:
        changed += finish(game, position.result, Game.Status.NO_MOVES)
    game.save_change(*changed)
    _computer_replies(game)


def ask_hint(public_id: str, tokens: Tokens) -> Game:
    """Ask for the strongest level's move for the side to move; a worker thinks it out
    and ``give_hint`` shows it. Hot-seat games and games against the computer only:
    in a friend game it would be the computer playing for one side."""
    with transaction.atomic():
        game = _locked(public_id)
        if game.mode == Game.Mode.FRIEND:
            raise PlayError("hints are for hot-seat games and games against the computer")
        _check_turn(game, tokens, "ask for a hint")
        if not game.hint_asked:
            game.hint_ply, game.hint = game.ply, ""
            game.save_change("hint_ply", "hint")
            from game import computer  # see _computer_replies

            transaction.on_commit(partial(computer.hint.enqueue, game.public_id, game.ply))
    return game


def give_hint(public_id: str, ply: int, text: str) -> Game | None:
    """Show ``text`` as the hint asked for at ``ply``; None if the game moved on."""
    with transaction.atomic():
        game = _locked(public_id)
        if not game.hint_asked or game.hint_ply != ply or game.hint:
            return None
        game.hint = text
        game.save_change("hint")
    return game


def resign(public_id: str, tokens: Tokens) -> Game:
    """End the game in the opponent's favour. In hot-seat the side to move resigns."""
    with transaction.atomic():
        game = _locked(public_id)
        if game.is_over:
            raise GameFinished("the game is over")
        seated = seated_colors(game, tokens)
        if not seated:
            raise NotSeated("you are watching this game: only its players can resign")
        if game.status == Game.Status.WAITING:
            raise NotStarted("the game has not started: nobody has joined to win it")
        loser = game.turn if len(seated) == 2 else seated.pop()
        game.save_change(*finish(game, Color(loser).opponent.value, Game.Status.RESIGNED))
    return game


def rematch(public_id: str, tokens: Tokens) -> tuple[Game, dict[str, str]]:
    """The finished game's rematch: same options, colours swapped; return it and new tokens.

    The first player to ask creates it; the other player then joins it (``join`` with
    their tokens of this game) or, asking again, is seated in it.
    """
    with transaction.atomic():
        game = _locked(public_id)
        if not game.is_over:
            raise PlayError("a rematch can start once this game is over")
        seated = seated_colors(game, tokens)
        if not seated:
            raise NotSeated("only the players of this game can start a rematch")
        existing = Game.objects.filter(rematch_of=game).first()
        if existing is not None:
            # Colours swap: whoever played ``color`` here plays its opponent there.
            mine = {Color(color).opponent.value for color in seated}
            if free_seat(existing) in mine:
                _, color, token = join(existing.public_id, previous=tokens)
                return existing, {color: token}
            return existing, {}
        if game.mode == Game.Mode.HOTSEAT:
            new, new_tokens = create_game(game.mode, game.rules, rematch_of=game)
        else:
            # One browser may hold both seats of a friend game (a seat link opened
            # beside its own): it starts the rematch as the first of them.
            color = min(seated)
            new, new_tokens = create_game(
                game.mode,
                game.rules,
                creator=Color(color).opponent.value,
                rematch_of=game,
                level=game.level_of(Color(color).opponent),
            )
        game.save_change()
    return new, new_tokens
