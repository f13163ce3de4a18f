"""Values that draw themselves with a small template, rendered once and reused.

Like Django's forms, a value decorated with ``@drawn_by("maerstanas/_square.html", "cell")``
renders that template, with itself as ``cell``, wherever a template shows it
(``{{ cell }}``). The template sees nothing but the value, so the markup depends on
the value alone: each distinct value (immutable and hashable) is rendered once per
process and its markup reused.

Why: after a move the page redraws 49 squares and every move of the list, and
Django's template engine takes longer over that than over the move itself. The
pieces repeat (an empty open square looks the same in every game), so caching them
cuts the board's drawing to a few lookups: the 49 squares and a 20-move list of a
game in progress take 0.15-0.2 ms to draw this way against 2.3-3.0 ms with every
piece rendered afresh (``python -m bench.drawing``). ``Fragments`` shows a sequence
of them one after another; ``{% for %}`` costs more per item than the cached pieces do.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Protocol, TypeVar

from django.template.loader import get_template
from django.utils.safestring import SafeString


class Drawable(Protocol):
    def __html__(self) -> SafeString: ...


T = TypeVar("T", bound=type)


def drawn_by(template_name: str, name: str) -> Callable[[T], T]:
    """Class decorator: instances show as ``template_name`` rendered with them as ``name``."""

    def decorate(cls: T) -> T:
        def __html__(self: Hashable) -> SafeString:
            # Run at import, before a mutant is switched on; test_board checks
            # that each value shows as its template.
            return _render(template_name, name, self)  # pragma: no mutate

        # str(): what Django's templates call. Run at import, as above.
        cls.__html__ = cls.__str__ = __html__  # pragma: no mutate
        return cls

    return decorate


@lru_cache(maxsize=16384)
def _render(template_name: str, name: str, value: Hashable) -> SafeString:
    return get_template(template_name).render({name: value})


class Fragments(tuple[Drawable, ...]):
    """Drawable values shown one after another: ``{{ board.rows }}`` draws each row."""

    __slots__ = ()

    def __html__(self) -> SafeString:
        return SafeString("".join([item.__html__() for item in self]))

    __str__ = __html__
