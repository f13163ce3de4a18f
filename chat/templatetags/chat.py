"""``{% chat_box page %}``: the chat box of the game page, drawn for its viewer."""

from __future__ import annotations

from typing import Any

from django import template

from chat import talk

register = template.Library()


@register.inclusion_tag("chat/_chat.html", takes_context=True)
def chat_box(context: template.Context, page: Any) -> dict[str, Any]:
    """The chat of ``page``'s game for the request's viewer (two small queries)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    account = user if user is not None and user.is_authenticated else None
    box = talk.box(page.game, page.seated, account, reviewing=page.replay.reviewing)
    # The opponent's username, for the note of a switched-off chat; "" for a guest.
    opponent = ""
    if box is not None and box.player:
        other = "light" if box.player == "dark" else "dark"
        opponent = (page.people.get(other) or {}).get("username") or ""
    return {
        "box": box,
        "opponent": opponent,
        "game_id": page.game.public_id,
        "csrf_token": context.get("csrf_token"),
    }
