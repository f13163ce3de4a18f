"""A side named as its game names it, in templates: ``{{ color|side:game.sides }}``
gives "Dark" (or "Blue") for the ``dark`` seat, ``{{ color|side_word:game.sides }}``
"dark" (or "blue") inside a sentence (``game.sides``)."""

from __future__ import annotations

from django import template

from game.sides import Sides

register = template.Library()


@register.filter
def side(color: str, sides: Sides) -> str:
    """The side of the ``color`` seat as a sentence starts it; "" for no seat."""
    return sides.name(color) if color else ""


@register.filter
def side_word(color: str, sides: Sides) -> str:
    """The side of the ``color`` seat inside a sentence; "" for no seat."""
    return sides.word(color) if color else ""
