"""The Binomial terminal game, driven by scripted stdin."""

import io

from bot.games.binomial.rules import CELLS
from bot.terminal.binomial import play


def run(lines: list[str], players: int = 3, seed: int = 4, options: dict[str, bool] | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = play(players, "normal", seed, io.StringIO("".join(f"{line}\n" for line in lines)), out, options)
    return code, out.getvalue()


def test_a_whole_game_with_help_refusals_and_passes() -> None:
    code, text = run(["help", "9z", *CELLS[:3], "1a", *CELLS[3:], "sheet", "12x", *["pass"] * 16])
    assert code == 0
    assert "Binomial, in short" in text and "Digits sum to 10" in text
    assert "Refused: '9z' is not a cell" in text
    assert "Refused: 1a is already filled" in text
    assert "Game 1, roll 1 of 16:" in text
    assert "Card 1 of 16" in text and "Reveal:" in text and "Scores:" in text
    assert "Game over. Every sheet:" in text and ("Winner:" in text or "Shared win:" in text)


def test_refused_numbers_then_a_fight_that_is_revealed() -> None:
    # seed 8: every roll written to 1a 1b ... gives 42 50 43 45 48 42 69 52; the first card takes any number
    code, text = run([*CELLS, *(f"{n:02d}" for n in range(100)), *["pass"] * 20], seed=8)
    assert code == 0
    assert "Refused: 00 is not on your sheet" in text
    first_reveal = text.split("Reveal: ")[1].splitlines()[0]
    assert "you 42" in first_reveal


def test_end_of_input_abandons_cleanly() -> None:
    code, text = run(["1a", "1b"])
    assert code == 1 and text.rstrip().endswith("game abandoned.")


def test_dark_variant_and_a_match() -> None:
    code, text = run([*CELLS, *["pass"] * 16] * 3, players=2, options={"dark": True, "match": True})
    assert code == 0 and "Game 3, roll 16 of 16" in text and "the next game of the match begins" in text
