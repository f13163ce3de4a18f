"""The lines of "My games" (``/games/``), and whom a game is against in words, as that
list and a player's page say it."""

from __future__ import annotations

from typing import NamedTuple

from game import people
from game.kinds import GameKind
from game.models import BrowserGame, Game
from game.pages.detail import ComputerSeat, computer_seat
from game.registry import named_apart
from game.surface import (
    Color,
)


class MyGame(NamedTuple):
    """A line of "My games": who the game is against, how far it went, where it is."""

    game: Game
    colors: tuple[str, ...]  # the seats this browser holds
    your_turn: bool
    summary: str
    opponent: str = ""  # "Against Wita (level 6)", "Against a friend", "Hot-seat"…
    moves: str = ""  # "No moves yet", "1 move", "12 moves"
    state: str = ""  # "Your turn", "Light to move", "Dark wins · 30–28"…
    kind: GameKind | None = None  # the game, when it is not the site's usual one


def opponent_words(game: Game, colors: tuple[str, ...]) -> str:
    """Whom a game is against for the one holding the ``colors`` seats, as "My games"
    and a player's page list it: "Against Wita (level 6)", "Against Ann, rated"."""
    return _opponent(game, computer_seat(game), colors)


def _opponent(game: Game, computer: ComputerSeat | None, colors: tuple[str, ...]) -> str:
    """Whom a game of "My games" is against, in words: the computer by its level, a
    person by their name as the game page gives it ("Ann", "Wulf (guest)")."""
    if computer is not None:
        return f"Against {computer.level.name} (level {computer.number})"
    if game.mode == Game.Mode.FRIEND:
        against = _other_person(game, colors) or "a friend"
        return f"Against {against}, rated" if game.rated else f"Against {against}"
    if game.mode == Game.Mode.IMPORTED:
        dark, light = game.imported_players
        if isinstance(dark, str) and isinstance(light, str) and dark and light:
            return f"Imported record: {dark} vs {light}"
    return str(game.get_mode_display())


def _other_person(game: Game, colors: tuple[str, ...]) -> str:
    """Who holds the side the viewer does not: an account's username, a guest's name
    with "(guest)", or "a guest"; "" while nobody does, or when the viewer holds both.
    Reads the seats and their accounts as prefetched with the list."""
    if len(colors) != 1:
        return ""
    seat = game.seats_by_color().get(Color(colors[0]).opponent.value)
    if seat is None or seat.level:
        return ""
    return people.named(seat.user.username if seat.user else None, seat.guest_name)


def my_game_lines(entries: list[BrowserGame]) -> tuple[list[MyGame], list[MyGame]]:
    """A browser's games as "My games" lists them: those going on, your turn first,
    then the finished and the imported records; newest first within each. Reads no
    more than the entries with their games and seats."""
    lines = []
    for entry in entries:
        game = entry.game
        colors = tuple(entry.colors.split())
        computer = computer_seat(game)
        if game.is_over:
            outcome = game.result_text if game.result else game.get_status_display()
            summary = state = f"{outcome} · {game.dark_score}–{game.light_score}"
        elif game.mode == Game.Mode.IMPORTED:
            summary = state = f"Unfinished · {game.dark_score}–{game.light_score}"
        elif game.status == Game.Status.WAITING:
            summary = state = "Waiting for your friend"
        else:
            turn = game.sides.name(game.turn)
            summary = f"{turn} to move · move {game.ply + 1}"
            thinking = computer is not None and computer.color == game.turn
            state = f"{computer.level.name if thinking else turn} to move"
        your_turn = game.status == Game.Status.ACTIVE and game.turn in colors
        your_turn = your_turn and not game.computer_to_move
        state = "Your turn" if your_turn else state
        moves = "No moves yet" if not game.ply else f"{game.ply} move{'s' if game.ply != 1 else ''}"
        opponent = _opponent(game, computer, colors)
        kind = named_apart(game.kind)
        lines.append(MyGame(game, colors, your_turn, summary, opponent, moves, state, kind))
    # An imported record is replayed, never played on: it is listed with the finished.
    done = [line.game.is_over or line.game.mode == Game.Mode.IMPORTED for line in lines]
    going_on = [line for line, over in zip(lines, done, strict=True) if not over]
    going_on.sort(key=lambda line: not line.your_turn)  # stable: newest first within
    finished = [line for line, over in zip(lines, done, strict=True) if over]
    return going_on, finished
