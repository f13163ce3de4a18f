"""Every action on a game, one transaction each. Views call these, never the ORM directly.

Seats are passed in as ``tokens``: the seat tokens this browser holds for the game,
by colour (``{"dark": "…"}``). Only the engine of the game's kind decides what a
legal move is and when the game ends; this module checks who may act, writes the
move log, refreshes the cached state and ends games (``finish``). What follows a
change (the live pages, the computer's reply, a hint, whoever listens for the end of
a game) hears of it through ``game.hooks``, once the change commits.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.signing import salted_hmac
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from game import clocks, hooks
from game.grid import Color, Outcome
from game.kinds import GamePosition
from game.models import Game, Move, Seat
from game.options import Options
from game.refusals import (
    AlreadySeated,
    GameFinished,
    GameNotFound,
    NotSeated,
    NotStarted,
    NotYourTurn,
    PlayError,
    StaleMove,
)
from game.registry import kind_of
from game.tokens import new_seat_token

Tokens = Mapping[str, str]


def invite_code(game: Game) -> str:
    """The secret of a friend game's invite link (128 bits, derived, never stored);
    each renewal (``renew_invite``) gives another."""
    renewed = f":{game.invite_version}" if game.invite_version else ""
    return salted_hmac("maerstanas.invite", f"{game.public_id}{renewed}").hexdigest()[:32]


def renew_invite(public_id: str, tokens: Tokens) -> Game:
    """Give a friend game waiting for its friend a new invite link: the old one, if it
    leaked, takes nobody's seat. Only its player may, and only while the seat is free."""
    with transaction.atomic():
        game = _locked(public_id)
        if game.is_over:
            raise GameFinished("the game is over: nobody can join it")
        if not seated_colors(game, tokens):
            raise NotSeated("only this game's player can renew its invite")
        if game.mode != Game.Mode.FRIEND or game.free_seat() is None:
            raise PlayError("both seats are taken: there is no invite to renew")
        game.invite_version += 1
        game.save_change("invite_version")
    return game


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


def finish(game: Game, outcome: Outcome) -> list[str]:
    """End ``game`` with ``outcome``: its result (``dark``, ``light`` or ``tie``) and
    why it ended, the rules' reason (``position.outcome()``) or another (a resignation).

    The one way a game ends, whatever the reason, as lila's ``Finisher`` is. Call it
    under the game's row lock, in the transaction that saves the change, then save the
    fields it returns with the rest (``save_change``); ``hooks.game_finished`` is sent
    once that transaction commits. Raises ``GameFinished`` if the game has already
    ended, ``ValueError`` for an end its kind does not have.
    """
    if game.is_over:
        raise GameFinished("the game is over")
    ends = {*Game.OTHER_ENDS, *game.game_kind.ends}
    results = [""] if outcome.reason == Game.Status.ABORTED else Game.Result.values
    if outcome.reason not in ends or outcome.result not in results:
        raise ValueError(f"a game cannot end with {outcome.result!r} because {outcome.reason!r}")
    stopped = clocks.stopped(game, clocks.now())
    game.status = outcome.reason
    game.result = outcome.result
    game.turn = ""
    hooks.game_ending.send(sender=Game, game=game, outcome=outcome)
    hooks.on_commit(hooks.game_finished, sender=Game, game=game, outcome=outcome)
    return ["status", "result", "turn", *stopped]


def out_of_time(game: Game) -> bool:
    """End ``game`` if its side to move has run out of time (``clocks.expired``) and
    save it: under the row lock, in a transaction that must commit for the end to
    stand, so the caller returns before raising. Whether it ended."""
    outcome = clocks.expired(game, clocks.now())
    if outcome is None:
        return False
    game.save_change(*finish(game, outcome))
    return True


def expire(public_id: str) -> Game | None:
    """End the game if its side to move has run out of time; the game if it ended now.
    Anyone asking about a game whose deadline has passed calls it, and so does the
    task set for each deadline (``game.timekeeper``): whichever comes first ends it,
    the other finds it over."""
    with transaction.atomic():
        game = Game.objects.locked(public_id)
        if game is None or not out_of_time(game):
            return None
    return game


def in_time(game: Game) -> Game:
    """``game`` as it stands now: if its deadline has passed, ended and read again.
    What pages and the API call before they show a game."""
    if game.deadline is not None and clocks.now() >= game.deadline and not game.is_over:
        ended = expire(game.public_id)
        if ended is not None:
            return ended
        game.refresh_from_db()
    return game


def _time_ran_out(game: Game) -> GameFinished:
    if game.status == Game.Status.ABORTED:
        return GameFinished("the game was aborted: a side made no first move in time")
    return GameFinished(f"{Color(game.result).opponent.value} ran out of time: the game is over")


def create_game(
    mode: str,
    rules: Options,
    creator: str = "dark",
    rematch_of: Game | None = None,
    level: str = "",
    start: GamePosition | None = None,
    moves: Sequence[str] = (),
    user: Any = None,
    rated: bool = False,
    clock: Game | None = None,
) -> tuple[Game, dict[str, str]]:
    """Start a game of the kind whose options ``rules`` are; return it and the seat
    tokens of its creator, by colour. ``user`` is the creator's account, if they are
    logged in: their seats are its. A ``rated`` game is a friend game between two
    accounts (``join``), which changes their ratings when it ends.

    A hot-seat game gives the creator both seats; a friend game one seat (``creator``
    is ``dark``, ``light`` or ``random``) and leaves the other for the invite; a game
    against the computer one seat, and the other to ``level`` (a level id of the
    kind's players), which thinks at once if it has the first move.

    A game may start from a set-up position, ``start``, and with ``moves`` already
    played from it (a game continued from a replay, an imported record or a board
    set up by hand); they are logged as its first moves.
    """
    if mode not in (Game.Mode.HOTSEAT, Game.Mode.FRIEND, Game.Mode.COMPUTER):
        raise PlayError(
            f"{mode!r} is not a kind of game: choose hot-seat, play a friend or the computer"
        )
    if creator == "random":
        creator = random.SystemRandom().choice([c.value for c in Color])
    if creator not in Color.__members__.values():
        raise PlayError(f"{creator!r} is not a colour: choose dark, light or random")
    players = kind_of(rules).players
    if mode == Game.Mode.COMPUTER and level not in players.level_ids:
        raise PlayError(f"{level!r} is not a level: choose one of {', '.join(players.level_ids)}")
    if rated and (mode != Game.Mode.FRIEND or user is None or start is not None or moves):
        raise PlayError("a rated game is a friend game from the empty board, started logged in")
    game, position = _new_game(mode, rules, start, moves)
    if position.is_over:
        raise GameFinished("the game is over in that position: there is nothing to play")
    game.rated = rated
    if clock is not None and mode == Game.Mode.FRIEND:
        # A rematch keeps its game's time control; its clocks start as the friend joins.
        clocks.set_up(game, clock.speed, clock.clock_initial, clock.clock_increment, clock.days)
    colors = [c.value for c in Color] if mode == Game.Mode.HOTSEAT else [creator]
    tokens = {color: new_seat_token() for color in colors}
    game.rematch_of = rematch_of
    game.status = Game.Status.ACTIVE if mode != Game.Mode.FRIEND else Game.Status.WAITING
    with transaction.atomic():
        game.save()
        seats = [Seat.person(game, color, token, user) for color, token in tokens.items()]
        if mode == Game.Mode.COMPUTER:
            seats.append(Seat.computer(game, Color(creator).opponent, level))
        game.took_seats(Seat.objects.bulk_create(seats), new=True)
        _log(game, position.history)
        _computer_replies(game)
    return game, tokens


@dataclass(frozen=True)
class Person:
    """One side of a game two people agreed on (``lobby``): the hash of the seat token
    its browser or program holds, and its account or guest name."""

    token_hash: str
    user: Any = None
    guest_name: str = ""


def create_match(
    rules: Options,
    people: Mapping[str, Person],
    rated: bool = False,
    speed: str = Game.Speed.UNLIMITED,
    initial: int = 0,
    increment: int = 0,
    days: int = 0,
) -> Game:
    """Start a game between two people, by colour, from the empty board: a challenge
    accepted in the lobby. It starts at once, its time control's clock with it; a
    ``rated`` game is between two accounts."""
    if set(people) != {color.value for color in Color}:
        raise ValueError("a match has a person for each side")
    if rated and any(person.user is None for person in people.values()):
        raise PlayError("a rated game is between two accounts: log in or sign up to play one")
    accounts = [person.user.pk for person in people.values() if person.user is not None]
    if len(set(accounts)) < len(accounts):
        raise AlreadySeated("one account cannot play both sides of a game")
    game, _ = _new_game(Game.Mode.FRIEND, rules, None, ())
    game.rated = rated
    game.status = Game.Status.ACTIVE
    clocks.set_up(game, speed, initial, increment, days)
    clocks.turn_begins(game, clocks.now())
    with transaction.atomic():
        game.save()
        seats = [
            Seat(
                game=game,
                color=color,
                token_hash=person.token_hash,
                user=person.user,
                guest_name=person.guest_name,
            )
            for color, person in people.items()
        ]
        game.took_seats(Seat.objects.bulk_create(seats), new=True)
        _timed(game)
    return game


def import_game(
    rules: Options,
    start: GamePosition,
    moves: Sequence[str],
    result: str = "",
    end: str = "",  # pragma: no mutate (only the ends outside the rules are read)
    tags: Mapping[str, str] | None = None,
) -> Game:
    """Save a record read by ``game.records`` as a game to replay: nobody holds its
    seats; it is continued as a new game (``create_game``) from any of its moves."""
    game, position = _new_game(Game.Mode.IMPORTED, rules, start, moves)
    game.tags = dict(tags or {})
    game.took_seats((), new=True)  # nobody holds an imported game's seats
    with transaction.atomic():
        outcome = position.outcome()
        if outcome is None and end in Game.OTHER_ENDS:
            outcome = Outcome(result, end)
        if outcome is not None:
            finish(game, outcome)
        game.save()
        _log(game, position.history)
    return game


def _new_game(
    mode: str, rules: Options, start: GamePosition | None, moves: Sequence[str]
) -> tuple[Game, GamePosition]:
    """An unsaved game of ``mode`` from ``start`` (the empty board by default) with
    ``moves`` played and the moves nobody chooses after them; and its position."""
    kind = kind_of(rules)
    first = start if start is not None else kind.start(rules)
    if first.rules != rules:
        raise ValueError("the start position is for other rules than the game's")
    position = kind.settle(kind.replay(first, moves))
    game = Game(
        kind=kind.name,
        mode=mode,
        options=rules.to_mapping(),
        start_text="" if kind.is_start(first) else first.to_text(),
    )
    game.cache_position(position, position.record)
    return game, position


def _log(game: Game, played: Sequence) -> None:
    """Write ``played`` (the engine's ``Played`` moves) to the log of a saved game,
    numbered on from the ply the game's log has reached."""
    first = game.ply - len(played) + 1
    Move.objects.bulk_create(
        Move(game=game, ply=ply, notation=move.text, color=move.color)
        for ply, move in enumerate(played, start=first)
    )


def _timed(game: Game) -> None:
    """Have the game ended at its deadline should nobody ask about it by then: once the
    change that set it commits, ``game.timekeeper`` sets a task for it."""
    if game.deadline is not None and not game.is_over:
        hooks.on_commit(
            hooks.deadline_set, sender=Game, public_id=game.public_id, deadline=game.deadline
        )


def _computer_replies(game: Game) -> None:
    """Have the computer think of its move, once the change that gave it the turn
    commits: a worker does it (``game.computer`` listens), never the request."""
    if game.computer_to_move:
        hooks.on_commit(hooks.computer_to_move, sender=Game, public_id=game.public_id, ply=game.ply)


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
        game = _locked(public_id)
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
        _timed(game)
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
        game = _locked(public_id)
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


def check_seat(game: Game, color: str, token: str) -> None:
    """Raise ``NotSeated`` unless ``token`` is the secret of ``color``'s seat."""
    if color not in Color.__members__.values() or not game.holds_seat(color, token):
        raise NotSeated("this seat link is not valid for this game")


def seated_colors(game: Game, tokens: Tokens) -> set[str]:
    """The colours whose seats these tokens hold."""
    return {c.value for c in Color if game.holds_seat(c, tokens.get(c.value))}


def _check_turn(game: Game, tokens: Tokens, action: str) -> None:
    """Raise unless the game goes on and ``tokens`` hold the seat of the side to move."""
    seated = _check_playing(game, tokens, action)
    if game.turn not in seated:
        raise NotYourTurn(f"it is {game.turn}'s turn")


def make_move(
    public_id: str,
    tokens: Tokens,
    text: str,
    expected_ply: int | str | None = None,
    seen: str = "",
) -> Game:
    """Play ``text`` for the side to move, then any automatic pass; return the game.

    ``expected_ply`` is the ply the player saw, and ``seen`` the position text: when
    the game has moved on, or a takeback brought it back to the same ply in another
    position, the move is refused with ``StaleMove``, so a double click or a stale
    tab never plays twice, nor in a position its player did not see.
    Raises ``PlayError`` subclasses for who may move and ``MoveError`` for the rules.
    """
    with transaction.atomic():
        game = _locked(public_id)
        ran_out = out_of_time(game)
        if not ran_out:
            _play(game, tokens, text, expected_ply, seen)
    if ran_out:
        raise _time_ran_out(game)
    return game


def _play(game: Game, tokens: Tokens, text: str, expected_ply: int | str | None, seen: str) -> None:
    """``make_move``'s work, under the row lock, once the side to move has time left."""
    _check_turn(game, tokens, "move")
    if expected_ply not in (None, "") and str(expected_ply) != str(game.ply):
        raise StaleMove("the board changed since you saw it: look again and choose anew")
    if seen and seen != game.position_text:
        raise StaleMove("the board changed since you saw it: look again and choose anew")
    # The cached position is rewritten with every move in the same transaction
    # (tests check it always equals a replay of the log), so it can stand in for
    # the replay here, under the row lock.
    # history=None reads the cached text as well: it is only tested for truth.
    cached = game.position(history=False)  # pragma: no mutate
    _record(game, cached, cached.play(text))


def computer_move(public_id: str, ply: int, text: str, seen: str = "") -> Game | None:
    """Play the computer's move ``text``, thought out for the game at ``ply``, in the
    position whose text is ``seen``.

    Returns None, changing nothing, when the game is no longer there or not the
    computer's to move: the reply was played already (a task run twice), the player
    resigned, or took a move back and played another (the same ply, another
    position). That makes a reply happen once per position, however many workers
    thought of it.
    """
    with transaction.atomic():
        game = _locked(public_id)
        if not game.computer_to_move or game.ply != ply:
            return None
        if seen and seen != game.position_text:
            return None
        cached = game.position(history=False)  # pragma: no mutate (as in make_move)
        _record(game, cached, cached.play(text))
    return game


def _record(game: Game, before: GamePosition, position: GamePosition) -> None:
    """Log the moves from the game's position ``before`` to ``position``, plus those
    nobody chooses (an automatic pass), and save the change: under the game's row lock.

    The moves played now are the last of ``position``'s history: all of it when
    ``before`` was read from the cached text, which has none.
    """
    position = game.game_kind.settle(position)
    played = position.history[len(position.history) - (position.ply - before.ply) :]
    now = clocks.now()
    charged = clocks.charge(game, now)
    changed = [*charged, *game.cache_position(position, [move.text for move in played])]
    changed += clocks.turn_begins(game, now)
    try:
        _log(game, played)
    except IntegrityError:
        raise StaleMove("the board changed since you saw it: look again") from None
    if (outcome := position.outcome()) is not None:
        changed += finish(game, outcome)
    if game.takeback_by:  # a move answers a takeback request: it lapses
        game.takeback_by = ""
        changed.append("takeback_by")
    game.save_change(*changed)
    _timed(game)
    _computer_replies(game)


# Takebacks ----------------------------------------------------------------------------------

TOO_LATE_TO_TAKE_BACK = "the game is over: moves can no longer be taken back"
DECLINED = "your friend declined to take back this move: you may ask again after your next move"


def take_back(public_id: str, tokens: Tokens) -> Game:
    """Take a move back: in hot-seat the last move, at once; against the computer the
    player's last move and the computer's reply, at once. In a friend game the
    friend must agree: this asks them (``answer_takeback``). The moves stay in the
    log, marked as taken back."""
    with transaction.atomic():
        game = _locked(public_id)
        seated = _check_playing(game, tokens, "take a move back", TOO_LATE_TO_TAKE_BACK)
        if game.rated:
            raise PlayError("a rated game has no takebacks")
        if game.mode == Game.Mode.FRIEND and len(seated) == 1:
            (color,) = seated
            if game.takeback_by:
                raise PlayError(f"{game.takeback_by} has asked for a takeback already")
            if _ply_before_last_move(game, color) + 1 == game.takeback_declined_ply:
                raise PlayError(DECLINED)
            game.takeback_by = color
            game.save_change("takeback_by")
            return game
        # Both seats (hot-seat, or both seats of a friend game in one browser): the
        # last move; against the computer, the player's own.
        color = _last_mover(game) if len(seated) == 2 else next(iter(seated))
        _rewind(game, _ply_before_last_move(game, color))
    return game


def answer_takeback(public_id: str, tokens: Tokens, accept: bool) -> Game:
    """Accept the friend's takeback (their last move, and any reply, are undone) or
    decline it, remembered (``Game.takeback_declined_ply``): that move is not asked again."""
    with transaction.atomic():
        game = _locked(public_id)
        seated = _check_playing(game, tokens, "answer a takeback", TOO_LATE_TO_TAKE_BACK)
        asker = game.takeback_by
        if not asker:
            raise PlayError("nobody has asked for a takeback")
        if asker in seated:
            raise PlayError("your friend answers your takeback, not you")
        game.takeback_by = ""
        if accept:
            _rewind(game, _ply_before_last_move(game, asker))
        else:
            game.takeback_declined_ply = _ply_before_last_move(game, asker) + 1
            game.save_change("takeback_by", "takeback_declined_ply")
    return game


def _check_playing(
    game: Game, tokens: Tokens, action: str, over: str = "the game is over"
) -> set[str]:
    """The colours ``tokens`` hold in a game that goes on; raise if none or it does
    not (``over`` says why it is too late)."""
    if game.is_over:
        raise GameFinished(over)
    seated = seated_colors(game, tokens)
    if not seated:
        raise NotSeated(f"you are watching this game: only its players can {action}")
    if game.status == Game.Status.WAITING:
        raise NotStarted("the game starts when your friend joins: send them the invite link")
    return seated


def _last_mover(game: Game) -> str:
    """The side that made the last move that was not a pass."""
    for played in reversed(game.position().history):
        if not played.move.is_pass:
            return played.color.value
    raise PlayError("there is no move to take back")


def _ply_before_last_move(game: Game, color: str) -> int:
    """The ply before ``color``'s last move that was not a pass (a pass is automatic:
    taking it back alone would give the turn to a side that cannot move)."""
    history = game.position().history
    for index in range(len(history) - 1, -1, -1):
        played = history[index]
        if played.color == color and not played.move.is_pass:
            return index
    raise PlayError("you have no move to take back")


def _rewind(game: Game, ply: int) -> None:
    """Go back to ``ply``: the later moves are marked as taken back, the cached state is
    that of the game then; a hint, a takeback request, a declined move taken back lapse."""
    Move.objects.filter(game=game, ply__gt=ply, taken_back=None).update(taken_back=timezone.now())
    position = game.position(ply)
    game.ply, game.record_text = 0, ""  # the cache is rewritten from the start
    changed = game.cache_position(position, position.record)
    game.hint_ply, game.hint, game.takeback_by = None, "", ""
    game.takeback_declined_ply = d if (d := game.takeback_declined_ply) and d <= ply else None
    changed += clocks.turn_begins(game, clocks.now())
    game.save_change(*changed, "hint_ply", "hint", "takeback_by", "takeback_declined_ply")
    _timed(game)
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
            hooks.on_commit(hooks.hint_asked, sender=Game, public_id=game.public_id, ply=game.ply)
    return game


def give_hint(public_id: str, ply: int, text: str, seen: str = "") -> Game | None:
    """Show ``text`` as the hint asked for at ``ply`` in the position whose text is
    ``seen``; None if the game moved on."""
    with transaction.atomic():
        game = _locked(public_id)
        if not game.hint_asked or game.hint_ply != ply or game.hint:
            return None
        if seen and seen != game.position_text:
            return None
        game.hint = text
        game.save_change("hint")
    return game


def resign(public_id: str, tokens: Tokens) -> Game:
    """End the game in the opponent's favour. In hot-seat the side to move resigns. A
    rated or timed game between people that a side has yet to move in is aborted
    instead (``Game.abortable``)."""
    with transaction.atomic():
        game = _locked(public_id)
        ran_out = out_of_time(game)
        if game.is_over and not ran_out:
            raise GameFinished("the game is over")
        seated = seated_colors(game, tokens)
        if not seated:
            raise NotSeated("you are watching this game: only its players can resign")
        if game.status == Game.Status.WAITING:
            raise NotStarted("the game has not started: nobody has joined to win it")
        if not ran_out and game.abortable:
            game.save_change(*finish(game, Outcome("", Game.Status.ABORTED)))
        elif not ran_out:
            loser = game.turn if len(seated) == 2 else seated.pop()
            winner = Color(loser).opponent.value
            game.save_change(*finish(game, Outcome(winner, Game.Status.RESIGNED)))
    if ran_out:
        raise _time_ran_out(game)
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
            if existing.free_seat() in mine:
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
                clock=game,
            )
        game.save_change()
    return new, new_tokens
