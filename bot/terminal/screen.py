"""What a game shows in the terminal: its screen, found in the game's own package, else a generic one.

A game may add ``terminal.py`` to its package (next to the module that defines the registered ``GAME``)
holding ``SCREEN``: an object with any of the methods of :class:`GenericScreen`; what it leaves out is
drawn by :class:`GenericScreen` from the game's declaration and views. The screen is pure text from views
and events (it lives under ``bot/games`` and imports nothing but its game): the front end hands it the
seats' names (:class:`~bot.terminal.console.Seats`) and the catalogue's words (:class:`Words`), so the
terminal says what the Discord table says, and does all the input, output and colour itself.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields, is_dataclass
from typing import Any

from bot.core.game import Action, Game, Prompt, Result, RuleError
from bot.i18n import catalog, t

from .console import WIDTH, Seats

_MARKDOWN = re.compile(r"\*\*|`")


def _terminal_text(text: str) -> str:
    """A catalogue sentence for the terminal: no markdown, no emoji (two columns wide, and only decoration)."""
    from wcwidth import wcwidth

    text = _MARKDOWN.sub("", text)
    kept = "".join(ch for ch in text if wcwidth(ch) != 2 and ch != "\ufe0f")
    return kept.strip() if kept != text else kept


class Words:
    """The Discord table's sentences (the message catalogue) for the terminal: no markdown, no emoji."""

    def __init__(self, language: str = "en") -> None:
        self.language = language

    def __call__(self, key: str, /, **values: Any) -> str:
        return _terminal_text(t(key, self.language, **values))

    def has(self, key: str) -> bool:
        return key in catalog(self.language) or key in catalog("en")


def wrap(text: str, indent: str = "") -> str:
    """``text`` folded to the terminal's width, each paragraph on its own."""
    return "\n".join(textwrap.fill(p, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ")
                     if p.strip() else "" for p in text.split("\n"))


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return value


def _fact(name: str, value: Any, seats: Seats) -> str:
    if name == "seat" and isinstance(value, int) and 0 <= value < len(seats):
        return seats.name(value)
    return str(value)


class GenericScreen:
    """The terminal of a game that brings no screen of its own: its facts as plain lines."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game

    def introduction(self, view: Any, seats: Seats, words: Words) -> str:
        return ""

    def rules(self, options: Mapping[str, Any], words: Words) -> str:
        key = f"{self.game.key}.rules.text"
        if words.has(key):
            return wrap(words(key))
        return f"{self.game.title}: the rules are not written for the terminal yet."

    def header(self, view: Any, prompt: Prompt, seats: Seats, words: Words) -> str | None:
        return None

    def question(self, view: Any, prompt: Prompt, words: Words) -> tuple[str, str]:
        """Lines to show above the prompt, and the prompt's own words."""
        return "", f"Your move ({prompt.kind})"

    def listed(self, view: Any, prompt: Prompt) -> bool:
        """Whether the moves on offer are listed one a line (the menu); they are completed with Tab anyway."""
        return True

    def choice(self, view: Any, action: Action, words: Words) -> tuple[str, str]:
        """How to type ``action``, and what it does."""
        typed = " ".join(str(v) for v in action.values())
        return typed, ", ".join(f"{k} {v}" for k, v in action.items())

    def event(self, event: Any, before: Any, after: Any, seats: Seats, words: Words) -> str | None:
        facts = _plain(event)
        if isinstance(facts, dict):
            return wrap(f"{type(event).__name__}: " + ", ".join(f"{k} {_fact(k, v, seats)}" for k, v in facts.items()))
        return wrap(str(event))

    def board(self, view: Any, seats: Seats, words: Words) -> str:
        facts = _plain(view)
        if not isinstance(facts, dict):
            return wrap(str(facts))
        return "\n".join(wrap(f"{k}: {v}") for k, v in facts.items())

    def final(self, view: Any, result: Result, seats: Seats, words: Words) -> str:
        width = max(len(n) for n in seats.names)
        lines = ["Final scores:"]
        lines += [f"  {seats.name(s):<{width}}  {result.scores[s]}" for s in sorted(result.scores)]
        winners = ", ".join(seats.name(s) for s in sorted(result.winners))
        lines.append(("Winner: " if len(result.winners) == 1 else "Winners (shared): ") + winners)
        return "\n".join(lines)

    def refusal(self, error: RuleError, view: Any, words: Words) -> str:
        key = f"{self.game.key}.error.{error.key}"
        if words.has(key):
            try:
                return words(key, **error.values)
            except (KeyError, IndexError):  # the sentence wants a value this error does not carry
                pass
        return str(error)

    def option_help(self, name: str, words: Words) -> str:
        """What the on/off table option ``name`` does, for ``play --help`` (the Discord option's words)."""
        area = f"{self.game.key}.cmd.opt."
        texts = catalog("en")
        key = next((k for k, v in texts.items() if k.startswith(area) and v == name), f"{area}{name}")
        text = words(f"{key}.desc") if words.has(f"{key}.desc") else name.replace("_", " ")
        option = next((o for o in self.game.options if o.name == name), None)
        if option is not None and option.seats is not None and "player" not in text:
            text += f" ({option.seats.start}-{option.seats.stop - 1} players)"
        return text

    def marks(self, seat: int) -> Iterable[str]:
        """Words that stand for ``seat`` on screen besides its name (Numeri's token labels), coloured alike."""
        return ()

    def script(self, names: Sequence[str], options: Mapping[str, Any], seed: int,
               steps: Sequence[Mapping[str, Any]]) -> Any:
        """What ``--script-out`` writes: the game's export envelope, which ``python -m bot replay`` reads."""
        from bot.core.fold import envelope

        return envelope(self.game.key, names, options, seed, steps)


METHODS = tuple(name for name in vars(GenericScreen) if not name.startswith("_"))


class Screen(GenericScreen):
    """A game's own screen where it has the method, the generic one elsewhere (each method looked up once)."""

    def __init__(self, game: Game[Any, Any, Any], own: object | None) -> None:
        super().__init__(game)
        self.own = own
        for name in METHODS:
            method = getattr(own, name, None)
            if method is not None:
                setattr(self, name, method)


def screen_module(game: Game[Any, Any, Any]) -> str:
    """Where a game's screen lives: ``terminal`` beside the module that defines its registered object."""
    package = type(game).__module__.rpartition(".")[0]
    return f"{package}.terminal" if package else "terminal"


def screen_for(game: Game[Any, Any, Any]) -> Screen:
    name = screen_module(game)
    try:
        found = importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        found = False
    own = getattr(importlib.import_module(name), "SCREEN", None) if found else None
    return Screen(game, own)
