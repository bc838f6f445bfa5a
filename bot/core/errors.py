"""User-facing errors of the game services (the cogs show ``str(error)`` privately)."""


class GameError(Exception):
    """A request that cannot be done; the message is a sentence meant for the user."""


class NoGameHere(GameError):
    def __init__(self) -> None:
        super().__init__("There is no game in this channel. Start one with `/thenumber start`.")


class NotInGame(GameError):
    def __init__(self) -> None:
        super().__init__("You are not playing in this game.")


class NotHost(GameError):
    def __init__(self, action: str) -> None:
        super().__init__(f"Only the host can {action}.")


class NotRunning(GameError):
    def __init__(self, status: str) -> None:
        messages = {
            "lobby": "The game has not started yet.",
            "finished": "That game is over.",
            "cancelled": "That game was cancelled.",
        }
        super().__init__(messages.get(status, "That game is not running."))


class NotEnoughPlayers(GameError):
    def __init__(self, needed: int) -> None:
        super().__init__(f"At least {needed} players are needed to start.")


class AlreadySeated(GameError):
    def __init__(self) -> None:
        super().__init__("You already have a seat in this game.")


class AlreadyStarted(GameError):
    def __init__(self) -> None:
        super().__init__("The game has already started.")
