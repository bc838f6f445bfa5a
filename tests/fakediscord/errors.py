"""Discord-shaped API errors and the fake's own misuse errors."""

from __future__ import annotations

from typing import Any


class DiscordAPIError(Exception):
    """Raised inside a route handler; the server turns it into Discord's JSON error body."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


class SimulationError(AssertionError):
    """A simulated user was asked to do something a real Discord client would not allow.

    It subclasses AssertionError so that a test relying on a button/command the bot never showed fails.
    """


def unknown_channel() -> DiscordAPIError:
    return DiscordAPIError(404, 10003, "Unknown Channel")


def unknown_message() -> DiscordAPIError:
    return DiscordAPIError(404, 10008, "Unknown Message")


def unknown_interaction() -> DiscordAPIError:
    return DiscordAPIError(404, 10062, "Unknown interaction")


def unknown_webhook() -> DiscordAPIError:
    return DiscordAPIError(404, 10015, "Unknown Webhook")


def already_acknowledged() -> DiscordAPIError:
    return DiscordAPIError(400, 40060, "Interaction has already been acknowledged.")


def invalid_webhook_token() -> DiscordAPIError:
    return DiscordAPIError(401, 50027, "Invalid Webhook Token")


def missing_permissions() -> DiscordAPIError:
    return DiscordAPIError(403, 50013, "Missing Permissions")


def missing_access() -> DiscordAPIError:
    return DiscordAPIError(403, 50001, "Missing Access")


def cannot_dm() -> DiscordAPIError:
    return DiscordAPIError(403, 50007, "Cannot send messages to this user")


def empty_message() -> DiscordAPIError:
    return DiscordAPIError(400, 50006, "Cannot send an empty message")


def invalid_form_body(errors: dict[str, Any]) -> DiscordAPIError:
    return DiscordAPIError(400, 50035, "Invalid Form Body", errors)


def wrong_channel_type() -> DiscordAPIError:
    return DiscordAPIError(400, 50024, "Cannot execute action on this channel type")


def thread_exists() -> DiscordAPIError:
    return DiscordAPIError(400, 160004, "A thread has already been created for this message")
