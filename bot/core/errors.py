"""User-facing errors of the game services. Each carries a message key (bot.i18n) and its values, so a
front end can say it in the user's language; ``str()`` is the English sentence."""

from typing import Any, ClassVar

from bot.i18n import t


class GameError(Exception):
    """A request that cannot be done."""

    def __init__(self, key: str, **values: Any) -> None:
        self.key, self.values = key, values
        super().__init__(t(key, "en", **values))

    def say(self, language: str) -> str:
        return t(self.key, language, **self.values)


class NoGameHere(GameError):
    """No table of this game here; ``start`` names the command that opens one (``/thenumber start``)."""

    def __init__(self, start: str = "`/<game> start`") -> None:
        super().__init__("core.error.no_game_here", start=start)


class NotInGame(GameError):
    def __init__(self) -> None:
        super().__init__("core.error.not_in_game")


class NotHost(GameError):
    """Only the host may do ``action`` (start, cancel, add_ai, kick)."""

    def __init__(self, action: str) -> None:
        super().__init__(f"core.error.not_host.{action}")


class NotRunning(GameError):
    KEYS: ClassVar[dict[str, str]] = {
        "lobby": "core.error.not_started", "finished": "core.error.over", "cancelled": "core.error.cancelled"}

    def __init__(self, status: str) -> None:
        super().__init__(self.KEYS.get(status, "core.error.not_running"))


class NotEnoughPlayers(GameError):
    def __init__(self, needed: int) -> None:
        super().__init__("core.error.not_enough", count=needed)


class AlreadySeated(GameError):
    def __init__(self) -> None:
        super().__init__("core.error.already_seated")


class AlreadyStarted(GameError):
    def __init__(self) -> None:
        super().__init__("core.error.already_started")


class UnknownLevel(GameError):
    def __init__(self, levels: tuple[str, ...]) -> None:
        super().__init__("core.error.ai_level", levels=", ".join(levels))


class NotYourTurn(GameError):
    """The current step does not ask this seat (another seat's move, or it sits this step out)."""

    def __init__(self) -> None:
        super().__init__("core.error.not_your_turn")


class TurnOver(GameError):
    """An action meant for a step that is no longer the current one; carries where the game is now."""

    def __init__(self, step: int, table: Any = None) -> None:
        self.step, self.table = step, table
        super().__init__("core.error.turn_over")


class SentBefore(TurnOver):
    """A message sent while step ``meant`` was open and taken only after it ended (a late DM): it counts for no
    step, and the player is told which step is open now."""

    def __init__(self, step: int, table: Any, meant: int) -> None:
        super().__init__(step, table)
        self.meant = meant


class NotFinished(GameError):
    def __init__(self) -> None:
        super().__init__("core.error.not_finished")


class BadOption(GameError):
    """A table option out of what the game declares (``allowed`` is written with digits and names only)."""

    def __init__(self, name: str, allowed: str) -> None:
        super().__init__("core.error.bad_option", name=name, allowed=allowed)


class OptionNeedsSeats(GameError):
    def __init__(self, name: str, low: int, high: int) -> None:
        super().__init__("core.error.option_seats", name=name, low=low, high=high)
