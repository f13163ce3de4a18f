"""A game's options, read and written in one place: forms, query strings, JSON,
record tags and the short keys of stored analyses all go through this codec.

Pure Python, standard library only, so an engine declares its options with it. A
game's options class (Mǽrstánas's ``Rules``) is a frozen dataclass that lists its
options in ``OPTIONS`` and inherits the readers and writers of ``Options``::

    @dataclass(frozen=True, slots=True)
    class Rules(Options):
        OPTIONS = (OnOff("special_stones", "Special stones", "SpecialStones", True, "S"), …)
        special_stones: bool = True

    Rules.from_mapping({"special_stones": "off"})   # a form or a query string
    Rules.from_mapping({"special_stones": False}, typed=True)   # JSON
    rules.to_tags()                                 # [("SpecialStones", "off"), …]

A value that is not one of an option's is refused with ``OptionError``, which
names the option and the value, in a player's words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

__all__ = ["Choice", "OnOff", "OptionError", "Options"]

# What a checkbox or a query may say for an on/off option (browsers send "on").
ON = frozenset({"on", "true", "1", "yes"})
OFF = frozenset({"", "off", "false", "0", "no"})
# A refused value is quoted this far, so a message stays short whatever was sent.
QUOTED = 20


class OptionError(ValueError):
    """A value an option does not take; the message names both."""

    def __init__(self, message: str, option: OnOff | Choice, value: object) -> None:
        super().__init__(message)
        self.option = option
        self.value = value


@dataclass(frozen=True, slots=True)
class OnOff:
    """An option that is on or off."""

    name: str  # the field's name in forms, queries and JSON: "special_stones"
    label: str  # as a page shows it: "Special stones"
    tag: str  # its record tag: "SpecialStones"
    default: bool
    flag: str  # its letter in a key: upper case when on, lower case when off

    @property
    def words(self) -> str:
        return self.name.replace("_", " ")

    def read(self, value: object, typed: bool, where: str) -> bool:
        if typed:
            if not isinstance(value, bool):
                raise OptionError(f"{self.name!r} must be true or false", self, value)
            return value
        text = "" if value is None else str(value).strip().lower()
        if text in ON:
            return True
        if text in OFF:
            return False
        raise OptionError(f"{where}: {text[:QUOTED]!r} is neither on nor off", self, value)

    def write(self, value: bool) -> str:
        return "on" if value else "off"

    def letter(self, value: bool) -> str:
        return self.flag.upper() if value else self.flag.lower()

    def from_letter(self, letter: str) -> bool:
        return letter == self.flag.upper()


@dataclass(frozen=True, slots=True)
class Choice:
    """An option that takes one of a few words."""

    name: str
    label: str
    tag: str
    default: str
    choices: tuple[tuple[str, str], ...]  # (value, label), in the order a form shows them
    flags: tuple[str, ...]  # each value's letter in a key, in the order of ``choices``

    @property
    def words(self) -> str:
        return self.name.replace("_", " ")

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(value for value, _ in self.choices)

    @property
    def allowed(self) -> str:
        """The values in words: "standard or simple"."""
        values = self.values
        return ", ".join(values[:-1]) + f" or {values[-1]}" if len(values) > 1 else values[0]

    def read(self, value: object, typed: bool, where: str) -> str:
        if typed:
            if not isinstance(value, str):
                raise OptionError(f"{self.name!r} must be a string", self, value)
            if value not in self.values:
                message = f"{value[:QUOTED]!r} is not a {self.words}: use {self.allowed}"
                raise OptionError(message, self, value)
            return value
        text = "" if value is None else str(value).strip().lower()
        if text == "":
            return self.default
        if text not in self.values:
            raise OptionError(f"{where}: {text[:QUOTED]!r} is not {self.allowed}", self, value)
        return text

    def write(self, value: str) -> str:
        return value

    def letter(self, value: str) -> str:
        return self.flags[self.values.index(value)]

    def from_letter(self, letter: str) -> str:
        return self.values[self.flags.index(letter)] if letter in self.flags else self.default


class Options:
    """The readers and writers of a game's options, for a frozen dataclass whose
    fields are named as its ``OPTIONS``."""

    __slots__ = ()

    OPTIONS: ClassVar[tuple[OnOff | Choice, ...]] = ()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, typed: bool = False) -> Self:
        """The options a form, a query string (``typed=False``: text such as ``on``)
        or JSON (``typed=True``: true, false and strings) names; a missing option
        (or, in text, an empty one) takes its default.

        Raises ``OptionError`` for a value an option does not take.
        """
        values = {}
        for option in cls.OPTIONS:
            value = data.get(option.name)
            # An empty field says no more than a missing one: the default.
            if option.name in data and (typed or value not in (None, "")):
                values[option.name] = option.read(value, typed, option.words)
        return cls(**values)

    def to_mapping(self) -> dict[str, bool | str]:
        """The options as JSON has them: ``{"special_stones": true, "scoring": "standard"}``."""
        return {option.name: getattr(self, option.name) for option in self.OPTIONS}

    def to_query(self) -> dict[str, str]:
        """The options as a form or a query string sends them: ``{"special_stones": "on"}``."""
        return {option.name: option.write(getattr(self, option.name)) for option in self.OPTIONS}

    @classmethod
    def from_tags(cls, tags: Mapping[str, str], default: Self | None = None) -> Self:
        """The options a record's tags name, each missing one taken from ``default``.
        Raises ``OptionError`` naming the tag of a value an option does not take."""
        base = default if default is not None else cls()
        values = {}
        for option in cls.OPTIONS:
            if option.tag in tags:
                where = f"the {option.tag} tag"
                # ``typed`` is only tested for truth: None reads the text as False does.
                values[option.name] = option.read(
                    tags[option.tag],
                    False,  # pragma: no mutate
                    where,
                )
            else:
                values[option.name] = getattr(base, option.name)
        return cls(**values)

    def to_tags(self) -> list[tuple[str, str]]:
        """The options as a record's tags: ``[("SpecialStones", "on"), …]``."""
        return [(option.tag, option.write(getattr(self, option.name))) for option in self.OPTIONS]

    @classmethod
    def tag_names(cls) -> tuple[str, ...]:
        return tuple(option.tag for option in cls.OPTIONS)

    @property
    def flags(self) -> str:
        """The options in a few letters, one an option (``Ssw``): the key of stored analyses."""
        return "".join(option.letter(getattr(self, option.name)) for option in self.OPTIONS)

    @classmethod
    def from_flags(cls, flags: str) -> Self:
        """The options ``flags`` gives; the inverse of ``flags``."""
        return cls(
            **{
                option.name: option.from_letter(letter)
                # strict=None, or no strict at all, is as lenient as False.
                for option, letter in zip(cls.OPTIONS, flags, strict=False)  # pragma: no mutate
            }
        )

    def describe(self) -> Iterable[tuple[str, str]]:
        """Each option's label and value in words, for a page: ("Scoring", "standard")."""
        for option in self.OPTIONS:
            yield option.label, option.write(getattr(self, option.name))
