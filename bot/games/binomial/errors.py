"""Typed errors of Binomial: each says what went wrong in words a player understands.

They are the core's ``RuleError`` (``key`` names the message for other languages, ``values`` fill it).
"""

from bot.core.game import RuleError, excerpt

from .rules import CELLS, Card, show


class BinomialError(RuleError):
    """Base of every Binomial rule error."""


class BadCell(BinomialError):
    def __init__(self, text: str) -> None:
        super().__init__(f"{excerpt(text)!r} is not a cell: write one of {CELLS[0]} {CELLS[1]} ... {CELLS[-1]}",
                         "bad_cell", text=text)


class CellTaken(BinomialError):
    def __init__(self, cell: str) -> None:
        super().__init__(f"{cell} is already filled", "cell_taken", cell=cell)


class BadNumber(BinomialError):
    def __init__(self, text: str) -> None:
        super().__init__("write pass, or one of your numbers as two digits, like 44", "bad_number", text=text)


class NotOnSheet(BinomialError):
    def __init__(self, number: int) -> None:
        super().__init__(f"{show(number)} is not on your sheet", "not_on_sheet", number=show(number))


class NumberUsed(BinomialError):
    def __init__(self, number: int, round_no: int) -> None:
        super().__init__(f"you used {show(number)} in round {round_no}", "number_used",
                         number=show(number), round=round_no)


class DoesNotFit(BinomialError):
    def __init__(self, number: int, card: Card) -> None:
        super().__init__(f"{show(number)} does not fit '{card.label}'", "does_not_fit",
                         number=show(number), card=card.key)


class NothingFits(BinomialError):
    def __init__(self, card: Card) -> None:
        super().__init__(f"you have no number that fits '{card.label}': you can only pass", "nothing_fits",
                         card=card.key)


class NotYourTurn(BinomialError):
    def __init__(self, kind: str) -> None:
        what = {"place": "place a digit", "declare": "declare", "pick": "pick", "roll": "act"}.get(kind, "act")
        super().__init__(f"it is not your turn to {what}", "not_your_turn", kind=kind)


class WrongStep(BinomialError):
    """An action of the wrong shape for the current step (a cell while declaring, a number while placing)."""

    def __init__(self, kind: str) -> None:
        wanted = {"place": "a free cell, like 3b", "declare": "pass, or a number to fight with",
                  "pick": "pass, or a number to fight with", "roll": "nothing: the die is rolled"}[kind]
        super().__init__(f"now the table wants {wanted}", "wrong_step", kind=kind)


class GameOver(BinomialError):
    def __init__(self) -> None:
        super().__init__("the game is over", "game_over")


class BadSetup(BinomialError):
    def __init__(self, message: str) -> None:
        super().__init__(message, "bad_setup")
