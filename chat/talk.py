"""Chat in games between people: saying something, switching the opponent's chat
off, reporting a message, and what one viewer's chat box shows.

Each change is one transaction under the game's row lock, and advances the game's
revision (``Game.save_change``): the pages watching the game redraw, as they do for
a move, so a message needs no stream of its own. A refusal raises a ``PlayError``
with words for the sender, and changes nothing.

Players talk in the players' room; anyone else watching talks in the watchers'
room, which the players never see, when the site allows it (``WATCHER_CHAT``).
Free text is for accounts; guests have the quick messages. A player blocked by the
opponent (``players.models.Block``) cannot write in the players' room of their games,
and the blocker does not see what they wrote before.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from chat.models import Message, Mute
from game import people, play
from game.models import Game
from players.models import Block, blocks

# The quick messages of each room: the players speak to each other; watchers, who play
# nothing, neither wish luck to nor ask a rematch of anyone.
QUICK = ("Good luck", "Well played", "Thanks", "Rematch?")
WATCHERS_QUICK = ("Hello", "Nice move", "What a game")
MAX_LENGTH = 200
# The newest messages a page shows: a long game's chat stays a small query.
SHOWN = 100
# Bidirectional overrides make a message read otherwise than it was written.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Accents a letter may carry, one on another: Vietnamese stacks two (ệ written apart),
# no language more, and a tower of 200 spills over the lines around it.
MAX_MARKS = 2

PLAYERS = Message.Room.PLAYERS
WATCHERS = Message.Room.WATCHERS


class NoChat(play.PlayError):
    """The game is not between people (hot-seat, the computer, an imported record)."""

    status = 404


class ChatClosed(play.PlayError):
    """The viewer may read the game but not talk in it."""

    status = 403


class MessageNotFound(play.PlayError):
    status = 404


def say(
    public_id: str,
    tokens: play.Tokens,
    user=None,
    *,
    text: str = "",
    quick: str = "",
    name: str = "",
) -> Game:
    """Post ``quick`` (one of the room's: ``QUICK`` for the players, ``WATCHERS_QUICK``
    for the watchers) or else ``text`` (accounts only) in the room
    of the one the tokens and ``user`` make the sender; ``name`` is a guest's chosen
    name. Returns the game, its revision advanced."""
    with transaction.atomic():
        game = _chat_game(public_id)
        seated = play.seated_colors(game, tokens)
        room, color = _room_of(game, seated)
        if room == PLAYERS and user is not None:
            _not_blocked(game, color, user)
        words = _words(text, quick, user, quick_messages(room))
        Message.objects.create(
            game=game,
            room=room,
            color=color,
            user=user,
            name=_name(user, name, room),
            text=words,
            quick=bool(quick),
        )
        game.save_change()
    return game


def mute(public_id: str, tokens: play.Tokens, on: bool) -> Game:
    """Switch the opponent's chat off (``on``) or back on, for this player in this game."""
    with transaction.atomic():
        game = _chat_game(public_id)
        color = _player(game, tokens)
        muted = Mute.objects.filter(game=game, color=color)
        if on and not muted.exists():
            Mute.objects.create(game=game, color=color)
            game.save_change()
        elif not on and muted.delete()[0]:
            game.save_change()
    return game


def report(message_id: int, public_id: str, tokens: play.Tokens) -> Game:
    """Mark the opponent's message for the operator (the admin lists reported ones).
    Reporting it again changes nothing."""
    with transaction.atomic():
        game = _chat_game(public_id)
        color = _player(game, tokens)
        message = Message.objects.filter(pk=message_id, game=game).first()
        if message is None:
            raise MessageNotFound("there is no such message in this game")
        if message.room != PLAYERS or message.color in ("", color):
            raise play.PlayError("you can report only your opponent's messages")
        if message.reported_at is None:
            message.reported_at = timezone.now()
            message.reported_by_color = color
            message.save(update_fields=["reported_at", "reported_by_color"])
    return game


def clean(text: str) -> str:
    """The words of a message: line breaks and runs of spaces made one space, the ends
    trimmed, accents composed with their letters (NFC). Raises ``PlayError`` for an
    empty or too long message, one holding control or invisible format characters, or
    more than ``MAX_MARKS`` accents stacked on one letter."""
    # Composed first (an accent and its letter as one character, where Unicode has it),
    # so a message is measured as it reads.
    words = unicodedata.normalize("NFC", " ".join(text.split()))
    if not words:
        raise play.PlayError("write something first")
    if len(words) > MAX_LENGTH:
        raise play.PlayError(
            f"a message is at most {MAX_LENGTH} characters: this one has {len(words)}"
        )
    if any(unicodedata.category(c) == "Cc" or c in _BIDI_CONTROLS for c in words):
        raise play.PlayError("a message cannot hold control characters")
    # Format characters (zero-width spaces and joiners, direction marks, the BOM) show
    # nothing: they make two messages look the same, or one word pass for another.
    if any(unicodedata.category(c) == "Cf" for c in words):
        raise play.PlayError(
            "a message cannot hold invisible characters (zero-width spaces or joiners, "
            "direction marks)"
        )
    if (stacked := _most_marks(words)) > MAX_MARKS:
        raise play.PlayError(
            f"a letter carries at most {MAX_MARKS} accents: this message stacks {stacked} on one"
        )
    return words


def _most_marks(text: str) -> int:
    """The most combining marks (accents and the like) in a row after one character."""
    most = run = 0
    for char in text:
        run = run + 1 if unicodedata.category(char).startswith("M") else 0
        most = max(most, run)
    return most


def quick_messages(room: str) -> tuple[str, ...]:
    """The quick messages said in ``room``."""
    return QUICK if room == PLAYERS else WATCHERS_QUICK


def _words(text: str, quick: str, user, offered: tuple[str, ...]) -> str:
    """What is said: one of the ``offered`` quick messages (anyone) or free text
    (accounts only)."""
    if quick:
        if quick not in offered:
            raise play.PlayError(
                f"{quick[:20]!r} is not a quick message here: choose {', '.join(offered)}"
            )
        return quick
    if user is None:
        raise play.PlayError("guests can send the quick messages only: log in to write your own")
    return clean(text)


def _chat_game(public_id: str) -> Game:
    """The game, its row locked; ``NoChat`` unless it is between people."""
    game = Game.objects.locked(public_id)
    if game is None:
        raise play.GameNotFound("there is no such game")
    if game.mode != Game.Mode.FRIEND:
        raise NoChat("this game has no chat: chat is for games between people")
    return game


def _room_of(game: Game, seated: set[str]) -> tuple[str, str]:
    """Where the sender talks, and as which side: a player in the players' room (even
    once the game is over, to say "Well played"), a watcher in the watchers' room."""
    if len(seated) == 1:
        return PLAYERS, next(iter(seated))
    if seated:
        raise play.PlayError("you hold both seats: there is nobody to talk to")
    if not settings.WATCHER_CHAT:
        raise ChatClosed("watchers cannot chat on this site")
    if game.is_over:
        raise ChatClosed("the game is over: its watchers' chat is closed")
    return WATCHERS, ""


def _not_blocked(game: Game, color: str, user) -> None:
    """Raise ``ChatClosed`` if the opponent of ``color`` blocked ``user``: a blocked
    player says nothing more to the blocker, so neither the blocker nor anyone reading
    the players' room afterwards sees a word of theirs the blocker could not answer."""
    opponent = game.seat(_opponent(color))
    if opponent is not None and blocks(opponent.user_id, user.pk):
        raise ChatClosed(f"{opponent.user.get_username()} is not taking messages from you")


def _player(game: Game, tokens: play.Tokens) -> str:
    """The side the tokens hold; ``NotSeated`` for a watcher."""
    seated = play.seated_colors(game, tokens)
    if len(seated) != 1:
        raise play.NotSeated("only a player of this game can do that")
    return next(iter(seated))


def _name(user, guest_name: str, room: str) -> str:
    """The sender's name as the message keeps it."""
    if user is not None:
        return user.get_username()
    return people.guest_name(guest_name, people.GUEST if room == PLAYERS else people.WATCHER)


# What a page shows --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One message as one viewer sees it."""

    id: int
    name: str
    text: str
    color: str
    quick: bool
    mine: bool
    reportable: bool  # the viewer plays, and it is the opponent's
    reported: bool


@dataclass(frozen=True, slots=True)
class Box:
    """A viewer's chat box: the room shown, its newest lines, and what the viewer may do."""

    room: str
    lines: tuple[Line, ...]
    player: str  # the viewer's side, "" for a watcher
    can_say: bool  # quick messages
    can_write: bool  # free text too (an account)
    muted: bool  # the viewer switched the opponent's chat off
    hidden: int = 0  # the opponent's messages since, left out of ``lines``

    @property
    def quick(self) -> tuple[str, ...]:
        return quick_messages(self.room)

    @property
    def max_length(self) -> int:
        return MAX_LENGTH


def box(game: Game, seated: frozenset[str], user=None, *, reviewing: bool = False) -> Box | None:
    """The chat box of ``game`` for a viewer holding the ``seated`` sides, ``user``
    their account; None where it has none. A finished game shows everyone the
    players' room; looking back at a moment shows it without forms."""
    if game.mode != Game.Mode.FRIEND:
        return None
    player = next(iter(seated)) if len(seated) == 1 else ""
    if player or game.is_over:
        room = PLAYERS
        can_say = bool(player)
    elif settings.WATCHER_CHAT:
        room, can_say = WATCHERS, True
    else:
        return None
    can_say = can_say and not reviewing
    muted_at = None
    if player:
        mutes = Mute.objects.filter(game=game, color=player)
        muted_at = mutes.values_list("created", flat=True).first()
    lines, hidden = _lines(game, room, player, user, muted_at)
    return Box(
        room=room,
        lines=lines,
        player=player,
        can_say=can_say,
        can_write=can_say and user is not None,
        muted=muted_at is not None,
        hidden=hidden,
    )


def _lines(
    game: Game, room: str, player: str, user, muted_at: datetime | None
) -> tuple[tuple[Line, ...], int]:
    """The room's newest messages, oldest first, and how many of them are hidden: once a
    player switched the opponent's chat off, what the opponent says from then on is
    left out, but what was said before stays, so the conversation still reads as it
    went (and the box never claims there was nothing). Those of accounts the viewer
    blocked are left out too (in the same query)."""
    fields = ("id", "name", "text", "color", "quick", "user_id", "reported_at", "created")
    messages = Message.objects.filter(game=game, room=room)
    if user is not None:
        messages = messages.exclude(user__in=Block.objects.filter(blocker=user).values("blocked"))
    newest = list(messages.order_by("-id").values_list(*fields)[:SHOWN])
    user_id = user.pk if user is not None else None
    opponent = _opponent(player) if player else ""
    lines = []
    hidden = 0
    for pk, name, text, color, quick, sender, reported_at, created in reversed(newest):
        if muted_at is not None and color == opponent and created >= muted_at:
            hidden += 1
            continue
        mine = color == player if player else (user_id is not None and sender == user_id)
        lines.append(
            Line(
                id=pk,
                name=name,
                text=text,
                color=color,
                quick=quick,
                mine=mine,
                reportable=bool(player) and color == opponent,
                reported=reported_at is not None,
            )
        )
    return tuple(lines), hidden


def _opponent(color: str) -> str:
    return "light" if color == "dark" else "dark"
