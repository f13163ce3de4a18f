"""``{% your_turn_list %}``: the games waiting for the viewer to move, as a box of the
page ("Your turn" on the home page and "My games"). The notices draw it themselves,
so the pages that show it need know nothing of them."""

from __future__ import annotations

from typing import Any

from django import template

from notifications import turns

register = template.Library()


@register.inclusion_tag("notifications/your_turn_list.html", takes_context=True)
def your_turn_list(context: template.Context, panel: bool = False) -> dict[str, Any]:
    """The request's viewer's games waiting for them (``turns.your_turn``: one query,
    none for a browser with no games); ``panel`` draws the box as a panel."""
    request = context.get("request")
    return {"your_turn": turns.your_turn(request) if request is not None else [], "panel": panel}
