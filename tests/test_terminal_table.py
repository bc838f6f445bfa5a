"""The terminal table (``python -m bot play``) of every game, in process: the same commands everywhere, the
menu, the words of the Discord table, 80 columns, and a game registered only here played through the
generic path (``play``, ``arena``, ``replay --game``)."""

from __future__ import annotations

import io
import json
import re
import sys
from typing import Any

import pytest

import bot.games
from bot.__main__ import main
from bot.games import GAMES
from bot.games.binomial.rules import CELLS
from bot.i18n import t
from tests.terminal_helpers import play_first_choices, play_lines, widest
from tests.toy_games import BIDS, RACE

KEYS = [g.key for g in GAMES]


@pytest.mark.parametrize("key", KEYS)
def test_every_game_plays_to_the_end_in_80_columns(key: str) -> None:
    game = next(g for g in GAMES if g.key == key)
    players = min(game.seats.stop - 1, 4)
    status, text, table = play_first_choices(key, players, seed=2)
    assert status == 0, text[-2000:]
    assert widest(text) <= 80, max(text.splitlines(), key=len)
    assert table.played.finished
    for wrong in ("ana wins", "ana is chairman", " 1 numbers", " 1 points", "pick a number from 1 to"):
        assert wrong not in text


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("word", ["quit", "exit", "q", " QUIT "])
def test_quit_ends_every_game_the_same_way(key: str, word: str) -> None:
    status, text = play_lines(key, 2, [word, "never read"])
    assert status == 1 and text.rstrip().endswith("Game abandoned.")
    assert "Refused" not in text and "never read" not in text


@pytest.mark.parametrize("key", KEYS)
def test_help_board_and_the_hint_in_every_game(key: str) -> None:
    status, text = play_lines(key, 2, ["help", "board", "", "q"])
    assert status == 1
    assert "[? help, q quit]: " in text  # every prompt says how to get help and how to leave
    assert text.count("Commands: help (or ? or rules), board, quit (or q)") == 3  # start, after help, empty line
    assert "Refused" not in text and widest(text) <= 80


def test_end_of_input_leaves_with_status_1() -> None:
    for key in KEYS:
        status, text = play_lines(key, 2, [])
        assert status == 1 and text.rstrip().endswith("Game abandoned."), key


# Numeri -----------------------------------------------------------------------------------------------------
def first_roll(seed: int) -> str:
    _, text = play_lines("numeri", 2, [], seed=seed)
    return re.findall(r"You rolled (\S+): your move", text)[0]


def test_numeri_takes_the_token_the_die_names_and_the_menu_says_where_it_goes() -> None:
    seed = next(s for s in range(1, 50) if first_roll(s).isdigit())
    roll = first_roll(seed)
    _status, text = play_lines("numeri", 2, [roll, "q"], seed=seed)
    menu = text.split("Your moves (type one as shown):\n")[1].splitlines()[0]
    assert re.fullmatch(rf"  {roll}  Token {roll}: off → \d+", menu), menu  # Discord's button text
    assert re.search(rf"ana rolled {roll}: token {roll} enters on square \d+\.", text)  # t("numeri.event.moved")
    assert "Refused" not in text and "pick a number" not in text


def test_numeri_refusals_are_the_discord_sentences() -> None:
    _status, text = play_lines("numeri", 3, ["zz", "7 7", "q"], seed=5)
    assert "Refused: " + t("numeri.error.bad_input", "en", text="zz").replace("**", "") in text
    assert "Refused: Tokens are numbered 1 to 5, not 7." in text or "Refused: A split" in text


# Binomial ---------------------------------------------------------------------------------------------------
def test_binomial_match_shows_each_games_result_before_the_next_begins() -> None:
    status, text, _ = play_first_choices("binomial", 3, seed=4, options={"match": True})
    assert status == 0
    for game in (1, 2):
        over = text.index(f"Game {game} of 3 is over.")
        scores = text.rindex("Scores: ", 0, over)
        assert text.index(f"Game {game + 1} of 3, roll 1 of 16") > over > scores
        assert f"Game {game + 1} of 3 begins." in text[over:]
    assert "Games: " in text.split("Binomial · game over")[1]  # each game's points in the final


def test_binomial_announces_every_declaration_including_the_last() -> None:
    status, text, _ = play_first_choices("binomial", 4, seed=3)
    assert status == 0
    rounds = re.split(r"\nRound \d+ of 16: ", text)[1:]
    assert rounds
    for block in rounds:
        told = re.findall(r"^[▲◆●★]? ?(\w+) (?:fights|passes)\.$", block.split("Reveal of round")[0], re.M)
        assert sorted(told) == ["ana", "bot1", "bot2", "bot3"], block[:600]


def test_binomial_spells_out_the_reward_for_fighting() -> None:
    for seed in range(1, 40):
        _, text, _ = play_first_choices("binomial", 5, seed=seed, options={"reward_for_fighting": True})
        text = text.split("Binomial · game over")[0].replace("\n  ", " ")  # wrapped lines joined
        rewarded = re.findall(r"Winner: .* \(\d+ \+ 1 reward for fighting, \d fighters\)", text)
        if rewarded:
            break
    assert rewarded
    for reveal in text.split("Reveal of round")[1:]:
        fighters = re.search(r"^Fighters: (.*)$", reveal, re.M)
        winner = re.search(r"^Winner: (.*)$", reveal, re.M)
        if fighters and winner:
            assert ("reward for fighting" in winner.group(1)) == (fighters.group(1).count(",") >= 2)


def test_binomial_help_lists_the_variants_in_play_and_says_round() -> None:
    _, text = play_lines("binomial", 2, ["help", "q"], options={"dark": True, "openness": True})
    assert "Variants in play: playing in the dark, openness." in text
    assert "Variants: playing in the dark, openness." in text.splitlines()[2]
    _status, text = play_lines("binomial", 2, [*CELLS, "q"], seed=4)
    assert "Round 1 of 16: " in text and "Card 1" not in text


def test_binomial_refuses_a_word_that_is_not_a_cell_with_discords_sentence() -> None:
    _status, text = play_lines("binomial", 2, ["9z", "1a", "1a", "q"])
    assert "Refused: 9z is not a cell: write one of 1a 1b ... 8b." in text
    assert "Refused: 1a is already filled: choose a free cell." in text


# The Number ---------------------------------------------------------------------------------------------------
def test_the_number_scores_are_in_columns() -> None:
    status, text, _ = play_first_choices("thenumber", 5, seed=4)
    assert status == 0
    for block in re.findall(r"^Scores:.*\n((?:  .*\n)+)", text, re.M):
        rows = block.splitlines()
        assert len({row.index("|") for row in rows}) == 1 and len({row.rindex("|") for row in rows}) == 1, rows
        assert len({len(row) for row in rows}) == 1, rows


# A game registered only here: the generic path ---------------------------------------------------------------
@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.games, "GAMES", (*GAMES, RACE, BIDS))


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str],
             stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_new_game_plays_in_the_terminal_with_the_generic_screen(race: None, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(monkeypatch, capsys, ["play", "--game", "race", "--players", "2", "--seed", "3",
                                                    "--level", "greedy", "--name", "ana"], "9\n1\n" * 40)
    assert code == 0, out[-1500:] + err
    assert out.startswith("Dice race: ana against 1 AI player (greedy).\nSeed 3: play this game again")
    assert "Dice race: the rules are not written for the terminal yet." not in out
    assert "Refused: move 1 to " in out  # the game's own sentence
    assert "Moved: seat ana, steps" in out and "Final scores:" in out and "Winner" in out
    assert widest(out) <= 80 and "The Number" not in out


def test_a_new_game_writes_an_envelope_that_replay_game_reads(race: None, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str], tmp_path: Any
                                                              ) -> None:
    script = tmp_path / "race.json"
    code, out, _ = run_main(monkeypatch, capsys, ["play", "--game", "bids", "--players", "3", "--seed", "1",
                                                  "--level", "all", "--script-out", str(script)], "3\n" * 20)
    assert code == 0 and f"Replay script written to {script}" in out
    code, out, err = run_main(monkeypatch, capsys, ["replay", "--game", "bids", str(script)])
    assert code == 0, err
    result = json.loads(out)
    assert result["game"] == "bids" and result["ended"] and result["seats"][0] != "you"
    code, out, err = run_main(monkeypatch, capsys, ["replay", "--game", "race", str(script)])
    assert code == 2 and "this envelope is of \"bids\", not race" in err


def test_a_new_game_in_the_arena(race: None, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(monkeypatch, capsys, ["arena", "--game", "race", "--games", "4", "--workers", "1",
                                                    "--seats", "greedy", "random", "--json"])
    assert code == 0, err
    assert set(json.loads(out)) == {"greedy", "random"}


def test_an_unknown_game_is_refused_with_status_2(race: None, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["play"], ["arena"], ["replay", "-"]):
        code, out, err = run_main(monkeypatch, capsys, [*command, "--game", "chess"])
        assert code == 2 and out == "" and "invalid choice: 'chess'" in err
        assert err.splitlines()[-1].startswith(f"python -m bot {command[0]}: error:")  # the sub-command's usage


# The command line ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("args", "where"), [
    (["--game", "numeri", "--players", "9"], "argument --players: Numeri is for 2 to 4 players, not 9"),
    (["--level", "genius"],
     "argument --level: 'genius' is not an AI level of The Number (choose from easy, normal, hard)"),
])
def test_a_bad_argument_shows_the_play_commands_usage(args: list[str], where: str, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(monkeypatch, capsys, ["play", *args])
    assert code == 2 and out == ""
    assert err.startswith("usage: python -m bot play ") and "--script-out FILE" in err
    assert err.splitlines()[-1] == f"python -m bot play: error: {where}"


def test_play_help_says_what_each_variant_does(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(monkeypatch, capsys, ["play", "--help"])
    joined = " ".join(out.split())
    assert code == 0 and "see the rules" not in joined
    assert "--same-boat Binomial: in the same boat (6 or 7 players only): when a number is cancelled, every " \
           "remaining fighter whose number fits scores the card's points" in joined
    assert "--game {thenumber,numeri,binomial}" in joined and "130 after Ctrl-C" in joined


def test_replay_of_an_empty_object_names_what_is_missing(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(monkeypatch, capsys, ["replay", "-"], "{}")
    assert code == 2 and out == ""
    assert err.strip() == ("missing 'players' and 'rounds': a script of The Number is "
                           '{"players": ["ana", "ben"], "rounds": [[5 turns], [5 turns]]}')
