"""A game's page (``GamePage``): its board, status and moves as the game's kind
draws them (``GameKind.drawing``), what the viewer may do (their seats decide), the
replay's place, the analysis panel, who plays and who watches."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from django.http import HttpRequest
from django.urls import reverse

from game import clocks, people, play, seats
from game.analysis import (
    AnalysisPanel,
    analysis_offer,
    analysis_panel,
)
from game.kinds import GameKind, GamePosition, Level
from game.links import GameUrls, game_urls
from game.models import Game
from game.pages.replay import Replay, replay_steps
from game.pages.times import time_shown
from game.review import Judgement
from game.surface import (
    Color,
    Outcome,
)
from kit import audience


class SeatLink(NamedTuple):
    color: str
    url: str


class ComputerSeat(NamedTuple):
    """The seat the computer holds, and how it plays."""

    color: str
    level: Level
    number: int  # its place on the ladder, from 1, the weakest
    thinking: bool  # it is to move, and its move is on its way


@dataclass(frozen=True, slots=True)
class GamePage:
    """Everything the game page and its live part show, for one viewer."""

    game: Game
    kind: GameKind
    board: Any  # the kind's drawing of the board (``Drawing.draw_board``)
    status: Any  # the kind's status bar (``Drawing.describe``)
    announce: str  # what a screen reader says of the change
    moves: Any
    seated: frozenset[str]
    urls: GameUrls
    error: str
    invite_url: str
    seat_links: tuple[SeatLink, ...]
    rematch: Game | None
    rematch_joinable: bool  # the viewer played this game and may take a seat in its rematch
    computer: ComputerSeat | None  # in a game against the computer
    hint: str  # the hint asked for here: its move, "" while it is thought out
    hint_allowed: bool  # the viewer may ask for a hint now
    replay: Replay
    news: str  # while reviewing: what happened in the game since the page opened
    seen: int  # the game's ply when the review began
    takeback: str  # what the viewer may do about a takeback: take, ask, answer, wait, ""
    analysis: AnalysisPanel | None
    hinges: bool  # the scoring hinges are drawn on the board
    # The people in the seats, by colour, when one of them has an account (names and
    # ratings; guests among guests need no names): name, rating, change (signed text).
    people: dict[str, dict[str, Any]]
    # How many pages watch the game (``kit.audience``), counted afresh for each drawing
    # of a game going on (the page, and each redraw of its live part); None otherwise.
    watchers: int | None = None
    # Looking back at the moment before a move the review judged: that move, whose
    # better one the board marks (``[data-better-move]``).
    better: Judgement | None = None

    @property
    def live(self) -> bool:
        """The game goes on: the page keeps asking for news."""
        return not self.game.is_over and self.game.mode != Game.Mode.IMPORTED

    @property
    def live_url(self) -> str:
        """The game's stream of server-sent events, from the revision this page shows."""
        path = reverse("game-live", args=[self.game.public_id])
        return f"{path}?revision={self.game.revision}"

    @property
    def poll_url(self) -> str:
        """Where the live page asks for news: 204 until the game's revision moves on;
        a page looking back asks to stay at its moment. A page waiting for a hint says
        so (``hint=due``): the hint, when it comes, chooses its own stone."""
        path = reverse("game-poll", args=[self.game.public_id, self.game.revision])
        kept = "hinges=on&" if self.hinges else ""
        if self.replay.reviewing:
            return f"{path}?ply={self.replay.ply}&seen={self.seen}&{kept}"
        if self.hint_allowed and self.game.hint_asked and not self.hint:
            kept += "hint=due&"
        return f"{path}?{kept}"

    @property
    def hinges_url(self) -> str:
        """This page with the scoring hinges shown, or hidden if they are."""
        query = f"ply={self.replay.ply}&" if self.replay.reviewing else ""
        return f"{self.urls.page}?{query}hinges={'off' if self.hinges else 'on'}"

    @property
    def awaits_rematch(self) -> bool:
        """A finished game between two people with no rematch yet: its page asks every
        few seconds, so an offer of one shows without a reload."""
        game = self.game
        return game.is_over and game.mode == Game.Mode.FRIEND and self.rematch is None

    @property
    def awaited(self) -> str:
        """What the page waits for, which comes without the viewer doing anything: the
        computer's move, a hint or an analysis being worked out ("computer", "hint",
        "analysis"), another person's move or seat ("move"), the opponent's offer of a
        rematch ("rematch"); "" when nothing is on its way. Without JavaScript the page
        reloads itself while it waits."""
        if self.analysis is not None and self.analysis.pending:
            return "analysis"
        if self.replay.reviewing:
            return ""
        if self.live:
            if self.computer is not None and self.computer.thinking:
                return "computer"
            if self.hint_allowed and self.game.hint_asked and not self.hint:
                return "hint"
            return "" if self.board.can_move else "move"
        return "rematch" if self.awaits_rematch and self.seated else ""

    @property
    def clock(self) -> dict[str, Any] | None:
        """The time as the page shows it (``time_shown``); None for a game without any."""
        return time_shown(self.game, clocks.now())

    @property
    def sides(self) -> dict[str, Any] | None:
        """What the page shows of each side beside its score: the player (``people``)
        and the clock together, so a glance at a name finds its time; and the clock's
        terms and deadline (``clock``). None when the page names nobody and keeps no
        time."""
        clock = self.clock
        if clock is None and not self.people:
            return None
        clock_of = {side["color"]: side for side in clock.get("sides", ())} if clock else {}
        each = [
            {"color": color, "person": self.people.get(color), "clock": clock_of.get(color)}
            for color in ("dark", "light")
        ]
        return {"clock": clock, "each": each}

    @property
    def your_turn(self) -> bool:
        """The viewer plays one side, and it is that side's move."""
        return self.board.can_move and len(self.seated) == 1

    @property
    def your_move_due(self) -> bool:
        """The viewer plays one side and the game waits for its move, whatever moment
        the page shows: looking back, the title and the tab's icon still say so."""
        game = self.game
        return (
            len(self.seated) == 1 and game.status == Game.Status.ACTIVE and game.turn in self.seated
        )

    @property
    def title(self) -> str:
        """The page's title, which follows the game: "Your turn", "Light to move";
        looking back, the moment shown ("Move 3 of 8", "Your turn · move 3 of 8")."""
        if self.replay.reviewing:
            moment = f"move {self.replay.ply} of {self.replay.last}"
            return f"Your turn · {moment}" if self.your_move_due else moment.capitalize()
        return self.status.headline

    @property
    def image_url(self) -> str:
        """The picture of the moment shown (link previews and the page's own link)."""
        return f"{self.urls.image}?ply={self.replay.ply}"


def game_page(
    request: HttpRequest,
    game: Game,
    *,
    choice: str,
    error: str,
    ply: int | None = None,
    seen: int | None = None,
) -> GamePage:
    """The game as ``request``'s browser sees it: its seats decide what it may do;
    ``?hinges=on`` draws the hinges each stone scores by. ``choice`` is what the
    viewer chose before moving (the stone to place, the piece to move); "" when they
    chose nothing, so the hint's is chosen.

    ``ply`` shows an earlier moment of the game, to look back at; ``seen`` is the
    game's ply when the player began to, so the page can say what was played since.
    """
    kind = game.game_kind
    drawing = kind.drawing
    tokens = seats.tokens_for(request, game.public_id)
    seated = frozenset(play.seated_colors(game, tokens))
    replay = replay_steps(
        game_urls(game.public_id).page, game.ply if ply is None else ply, game.ply
    )
    current = game.position()
    # At the game now, the moment shown is the position now: replaying its moves again
    # would give the same position, only later.
    position = game.position(replay.ply) if replay.reviewing else current  # pragma: no mutate
    ended = game.is_over and not replay.reviewing
    outcome = Outcome(game.result_word, game.status) if ended else None
    waiting = game.status == Game.Status.WAITING
    mover = (
        Color(game.turn)
        if not (outcome or waiting or replay.reviewing) and game.turn in seated
        else None
    )
    rematch = play.rematch_of(game)
    # Looking back at a finished game, no moment is anyone's turn.
    status = drawing.describe(
        position, outcome, seated, waiting, going_on=not game.is_over, sides=kind.sides
    )
    hint = game.hint if game.hint_asked and not replay.reviewing else ""
    seen = game.ply if seen is None else min(seen, game.ply)
    hinges = request.GET.get("hinges") == "on"
    # The panel reads the game's analyses when looking back or at the end; on a board
    # in play, redrawn after every move, it only offers to analyse the moment.
    if replay.reviewing or game.is_over or game.mode == Game.Mode.IMPORTED:
        analysis = analysis_panel(game, replay.ply)
    else:
        analysis = analysis_offer(game, replay.ply)
    review = analysis.review if analysis else None
    marks = {judged.ply: judged for judged in review.judgements} if review else None
    # The moment before a judged move shows the move that was better.
    better = marks.get(replay.ply + 1) if marks and replay.reviewing else None
    news = ""
    if replay.reviewing and seen < game.ply and (last := current.last_played) is not None:
        played = "passed" if last.move.is_pass else f"played {last.text}"
        news = f"{kind.sides.name(last.color)} {played}."
    return GamePage(
        game=game,
        kind=kind,
        board=drawing.draw_board(
            position,
            mover,
            choice,
            hint or None,
            hinges=hinges,
            better=better.best if better is not None else None,
        ),
        status=status,
        announce=news or drawing.announcement(position, status),
        moves=drawing.move_list(
            current, replay.ply if replay.reviewing else None, marks, sides=kind.sides
        ),
        seated=seated,
        urls=game_urls(game.public_id),
        error=error,
        invite_url=_invite_url(request, game, seated),
        seat_links=_seat_links(request, game, tokens),
        rematch=rematch,
        rematch_joinable=bool(
            rematch
            and seated
            and rematch.free_seat() is not None
            and not seats.tokens_for(request, rematch.public_id)
        ),
        computer=computer_seat(game),
        hint=hint,
        hint_allowed=mover is not None and game.mode != Game.Mode.FRIEND,
        replay=replay,
        news=news,
        seen=seen,
        takeback=_takeback(game, seated, current),
        analysis=analysis,
        hinges=hinges,
        people=people_shown(game),
        watchers=_watchers(game),
        better=better,
    )


def _watchers(game: Game) -> int | None:
    """How many watch a game going on: one indexed read, made for the page and for each
    redraw of its live part, so the players see watchers come and go as the game
    moves (a poll that finds nothing new draws nothing, and reads nothing)."""
    if game.is_over or game.mode == Game.Mode.IMPORTED:
        return None
    return audience.watching(game.public_id)


def people_shown(game: Game) -> dict[str, dict[str, Any]]:
    """The seats' people as the game page names them: none when nobody has a name (an
    account's, or one a guest gave themselves)."""
    seated = game.people()
    if not game.rated and all(person["name"] == people.GUEST for person in seated.values()):
        return {}
    for person in seated.values():
        if "change" in person:
            person["change_text"] = signed(person["change"])
    return seated


def signed(change: float) -> str:
    """A change of rating as pages show it: whole points with their sign, the minus a
    true one ("+16", "−16"); the API keeps one decimal."""
    points = round(change)
    return f"−{-points}" if points < 0 else f"+{points}"


def _takeback(game: Game, seated: frozenset[str], position: GamePosition) -> str:
    """What the viewer may do about taking a move back: ``take`` one at once (hot-seat,
    the computer), ``ask`` the friend, ``answer`` the friend's request, ``wait`` for
    the friend's answer, or hear that the friend ``declined`` to take back the move
    (it is not asked for again); "" for nothing (a rated game has no takebacks)."""
    if game.status != Game.Status.ACTIVE or not seated or game.rated:
        return ""
    if game.mode == Game.Mode.FRIEND and len(seated) == 1:
        if game.takeback_by:
            return "wait" if game.takeback_by in seated else "answer"
        history = enumerate(position.history, start=1)
        mine = [ply for ply, p in history if p.color in seated and not p.move.is_pass]
        if mine and mine[-1] == game.takeback_declined_ply:
            return "declined"
        return "ask" if mine else ""
    if game.mode == Game.Mode.COMPUTER:
        mine = any(p.color in seated and not p.move.is_pass for p in position.history)
        return "take" if mine else ""
    return "take" if any(not p.move.is_pass for p in position.history) else ""


def computer_seat(game: Game) -> ComputerSeat | None:
    """The seat the computer holds in ``game``, if it plays."""
    players = game.game_kind.players
    for color in Color:
        if level_id := game.level_of(color):
            level = players.level(level_id)
            thinking = game.computer_to_move == level_id
            return ComputerSeat(color.value, level, players.number(level_id), thinking)
    return None


def _invite_url(request: HttpRequest, game: Game, seated: frozenset[str]) -> str:
    if game.mode != Game.Mode.FRIEND or not seated or game.free_seat() is None:
        return ""
    path = reverse("game-invite", args=[game.public_id, play.invite_code(game)])
    return request.build_absolute_uri(path)


def _seat_links(request: HttpRequest, game: Game, tokens: dict[str, str]) -> tuple[SeatLink, ...]:
    if game.mode != Game.Mode.FRIEND:
        return ()
    return tuple(
        SeatLink(
            color,
            request.build_absolute_uri(reverse("game-seat", args=[game.public_id, color, token])),
        )
        for color, token in sorted(tokens.items())
        if game.holds_seat(color, token)
    )
