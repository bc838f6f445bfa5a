"""The Binomial terminal game, driven by scripted stdin."""

from bot.games.binomial.rules import CELLS
from tests.terminal_helpers import play_first_choices, play_lines


def test_a_whole_game_with_help_refusals_and_passes() -> None:
    status, text = play_lines("binomial", 3, ["help", "9z", *CELLS[:3], "1a", *CELLS[3:], "board", "12x",
                                              *["pass"] * 16], seed=4)
    assert status == 0
    assert "How to play Binomial" in text and "Digits sum to 10" in text
    assert "Refused: 9z is not a cell" in text
    assert "Refused: 1a is already filled" in text
    assert "Refused: Write pass, or one of your numbers as two digits, like 44." in text
    assert "\nRoll 1 of 16: " in text
    assert "Round 1 of 16" in text and "Reveal of round 1" in text and "Scores:" in text
    assert "Binomial · game over" in text and "Winner: " in text


def test_refused_numbers_then_a_fight_that_is_revealed() -> None:
    _, text = play_lines("binomial", 3, [*CELLS, "q"], seed=8)
    sheet = text.split("Your sheet: ")[-1].splitlines()[0].split()
    numbers = [cell.split(":")[1] for cell in sheet]  # every cell filled in order: the sheet's numbers
    absent = next(f"{n:02d}" for n in range(100) if f"{n:02d}" not in numbers)
    status, text = play_lines("binomial", 3, [*CELLS, absent, *(f"{n:02d}" for n in range(100)), *["pass"] * 20],
                              seed=8)
    assert status == 0
    assert "Refused: That number is not on your sheet." in text
    first_reveal = text.split("Fighters: ")[1].splitlines()[0]
    assert "ana " in first_reveal


def test_end_of_input_abandons_cleanly() -> None:
    status, text = play_lines("binomial", 3, ["1a", "1b"], seed=4)
    assert status == 1 and text.rstrip().endswith("Game abandoned.")


def test_dark_variant_and_a_match() -> None:
    status, text, _ = play_first_choices("binomial", 2, seed=4, options={"dark": True, "match": True})
    assert status == 0 and "Game 3 of 3, roll 16 of 16" in text and "Game 2 of 3 begins." in text
    assert " fights." not in text and " passes." not in text  # in the dark nobody declares aloud
