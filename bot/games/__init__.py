"""The games the bot plays: an explicit tuple, handed to the bot (no plug-in discovery)."""

from typing import Any

from bot.core.game import Game

from .binomial import game as binomial
from .numeri import game as numeri
from .thenumber import game as thenumber

GAMES: tuple[Game[Any, Any, Any], ...] = (thenumber.GAME, numeri.GAME, binomial.GAME)


class UnknownGameKey(LookupError):
    """A game key that is not in the tuple (a typo on the command line, a foreign export)."""

    def __init__(self, key: object, games: tuple[Game[Any, Any, Any], ...] | None = None) -> None:
        self.key = key
        games = GAMES if games is None else games
        super().__init__(f"no game {key!r}; the games are: {', '.join(g.key for g in games)}")


def game_for(key: str, games: tuple[Game[Any, Any, Any], ...] | None = None) -> Game[Any, Any, Any]:
    """The game whose key is ``key`` (among ``games``, by default the tuple), or :class:`UnknownGameKey`."""
    games = GAMES if games is None else games  # read when called: the tuple is the one list
    for game in games:
        if game.key == key:
            return game
    raise UnknownGameKey(key, games)
