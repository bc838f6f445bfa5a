"""Typed errors of Numeri: each ``str()`` is the sentence a player reads, and nothing changes."""

from collections.abc import Iterable, Sequence
from typing import Any

from bot.core.game import RuleError, excerpt

from .rules import DIE_FACES, MAX_SEATS, MIN_SEATS, SPLITS, TOKENS


def choice_text(moves: Sequence[int]) -> str:
    """``[4]`` -> ``"4"``, ``[1, 3]`` -> ``"1+3"``."""
    return "+".join(str(t) for t in moves)


def choices_text(choices: Iterable[Sequence[int]]) -> str:
    return ", ".join(choice_text(c) for c in choices) or "none"


class NumeriError(RuleError):
    """Base of every Numeri rule error."""


class BadRoll(NumeriError):
    def __init__(self, face: Any) -> None:
        faces = ", ".join(str(f) for f in DIE_FACES[:-1]) + f" or {DIE_FACES[-1]}"
        super().__init__(f"a roll is {faces}, not {face!r}", "bad_roll", face=str(face))


class BadToken(NumeriError):
    def __init__(self, token: Any) -> None:
        super().__init__(f"tokens are numbered {TOKENS[0]} to {TOKENS[-1]}, not {excerpt(repr(token))}",
                         "bad_token", token=str(token))


class GameOver(NumeriError):
    def __init__(self) -> None:
        super().__init__("the game is over", "game_over")


class NotYourTurn(NumeriError):
    def __init__(self, current: int) -> None:
        super().__init__(f"it is seat {current}'s turn", "not_your_turn", seat=current)


class RollFirst(NumeriError):
    def __init__(self) -> None:
        super().__init__("the die has not been rolled yet", "roll_first")


class AlreadyRolled(NumeriError):
    def __init__(self, face: Any) -> None:
        super().__init__(f"the die already shows {face}: move a token", "already_rolled", face=str(face))


class TokenBlocked(NumeriError):
    def __init__(self, token: int, after: int | None = None) -> None:
        if after is None:
            message = f"token {token} cannot move: every square ahead is taken"
        else:
            message = f"after token {after} moves, token {token} cannot move: every square ahead is taken"
        super().__init__(message, "blocked", token=token, after=after)


class WrongToken(NumeriError):
    def __init__(self, face: int, token: int) -> None:
        super().__init__(f"a {face} moves token {face}, not token {token}", "wrong_token", face=face, token=token)


class BarrierClosed(NumeriError):
    def __init__(self, barrier: int, face: int) -> None:
        super().__init__(f"no token has passed the barrier after square {barrier} yet: a {face} moves token {face}",
                         "barrier_closed", barrier=barrier, face=face)


class SplitNeedsThreeToFive(NumeriError):
    def __init__(self, face: Any) -> None:
        faces = ", ".join(map(str, list(SPLITS)[:-1])) + f" or {list(SPLITS)[-1]}"
        super().__init__(f"a split needs a throw of {faces}, not {face}", "split_face", face=str(face))


class WrongPair(NumeriError):
    def __init__(self, face: int, moves: Sequence[int]) -> None:
        pairs = " or ".join(choice_text(p) for p in SPLITS[face])
        super().__init__(f"a {face} splits as {pairs}, not {choice_text(moves)}", "wrong_pair", face=face,
                         moves=choice_text(moves))


class StarMovesOne(NumeriError):
    def __init__(self) -> None:
        super().__init__("a star moves one token of your choice, never two", "star_one")


class TooManyTokens(NumeriError):
    def __init__(self, count: int) -> None:
        super().__init__(f"one or two tokens move in a throw, not {count}", "too_many", count=count)


class SameTokenTwice(NumeriError):
    def __init__(self, token: int) -> None:
        super().__init__(f"a split moves two different tokens, not token {token} twice", "same_token", token=token)


class MoveRequired(NumeriError):
    def __init__(self, legal: Iterable[Sequence[int]]) -> None:
        text = choices_text(legal)
        super().__init__(f"a move is possible, so the turn cannot pass: {text}", "move_required", legal=text)


class NoMovePossible(NumeriError):
    def __init__(self, face: Any) -> None:
        super().__init__(f"no move is possible with a {face}: the turn passes", "no_move", face=str(face))


class SplitPartMissing(NumeriError):
    def __init__(self, first: int, partner: int) -> None:
        super().__init__(f"a split moves both tokens: {first} and {partner}", "split_part", first=first,
                         partner=partner)


class EndedMidSplit(NumeriError):
    def __init__(self, first: int, partner: int) -> None:
        super().__init__(f"token {first}'s move ended the game, so token {partner} does not move", "ended_mid_split",
                         first=first, partner=partner)


class BadInput(NumeriError):
    def __init__(self, text: str) -> None:
        super().__init__(f"type the token to move, like 4, or two for a split, like 1 3 (not {excerpt(text)!r})",
                         "bad_input", text=text)


class BadSeats(NumeriError):
    def __init__(self, seats: Any) -> None:
        super().__init__(f"Numeri is for {MIN_SEATS} to {MAX_SEATS} players, not {seats}", "bad_seats",
                         seats=str(seats))
