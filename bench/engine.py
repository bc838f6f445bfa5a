"""Engine throughput: check_turn, play_turn on GameState, and whole games through replay_text.

Inputs are random legal games (5 seats, each number drawn from the player's available digits), made
before the clock starts, so only the engine is timed. One core: the engine is pure Python.
"""

import json
import random
import time
from typing import Any

from bot.games.thenumber.check import Entry, check_turn
from bot.games.thenumber.engine import new_game, play_turn
from bot.games.thenumber.replay import replay_text, script_json
from bot.games.thenumber.rules import TURNS_PER_ROUND

from .common import Figure, summary

SEATS = ("ana", "ben", "cy", "dee", "eve")


def random_game(rng: random.Random, seats: tuple[str, ...] = SEATS) -> list[dict[str, str]]:
    """Ten turns of random legal numbers (a player with no digit left writes nothing)."""
    state = new_game(seats)
    turns: list[dict[str, str]] = []
    while not state.finished:
        numbers = {}
        for p in seats:
            digits = sorted(state.available(p))
            if digits:
                numbers[p] = "".join(str(rng.choice(digits)) for _ in range(3))
        state, _ = play_turn(state, numbers)
        turns.append(numbers)
    return turns


def make_games(count: int, seed: int = 7) -> list[list[dict[str, str]]]:
    rng = random.Random(seed)
    return [random_game(rng) for _ in range(count)]


def check_inputs(games: list[list[dict[str, str]]]) -> list[tuple[int, dict[str, Entry]]]:
    """(turn, entries) pairs for check_turn, with the statuses play_turn would give."""
    out = []
    for turns in games:
        for index, numbers in enumerate(turns):
            entries = {p: Entry(numbers[p]) if p in numbers else Entry(None, None) for p in SEATS}
            out.append((index % TURNS_PER_ROUND + 1, entries))
    return out


def bench_check_turn(inputs: list[tuple[int, dict[str, Entry]]]) -> float:
    start = time.perf_counter()
    for turn, entries in inputs:
        check_turn(turn, entries)
    return len(inputs) / (time.perf_counter() - start)


def bench_play_turn(games: list[list[dict[str, str]]]) -> float:
    start = time.perf_counter()
    turns = 0
    for game in games:
        state = new_game(SEATS)
        for numbers in game:
            state, _ = play_turn(state, numbers)
        turns += len(game)
    return turns / (time.perf_counter() - start)


def bench_replay(scripts: list[str]) -> float:
    start = time.perf_counter()
    for text in scripts:
        replay_text(text)
    return len(scripts) / (time.perf_counter() - start)


def run(quick: bool = False) -> list[Figure]:
    repeats = 3 if quick else 7
    games = make_games(200 if quick else 1000)
    inputs = check_inputs(games)
    scripts = [json.dumps(script_json(list(SEATS), game)) for game in games]
    # Sanity: the scripts replay to the same games the generator played.
    first = replay_text(scripts[0])
    assert len(first["turns"]) == 10, first
    check_rates, play_rates, replay_rates = [], [], []
    bench_check_turn(inputs[:2000])  # warm-up
    for _ in range(repeats):  # interleaved, so a noisy second hurts every figure alike
        check_rates.append(bench_check_turn(inputs))
        play_rates.append(bench_play_turn(games))
        replay_rates.append(bench_replay(scripts))
    target = 50_000
    check_stats, play_stats = summary(check_rates), summary(play_rates)
    extra: dict[str, Any] = {"turns_per_repeat": len(inputs), "seats": len(SEATS)}
    return [
        Figure("engine_check_turn_per_s", "Engine: check_turn, 5 seats", "turns/s", check_stats,
               f">= {target:,}/s", check_stats["median"] >= target, "one core, random legal numbers", extra),
        Figure("engine_play_turn_per_s", "Engine: play_turn on GameState, 5 seats", "turns/s", play_stats,
               f">= {target:,}/s", play_stats["median"] >= target,
               "includes new_game every 10 turns and the immutable state copies", extra),
        Figure("engine_replay_games_per_s", "Engine: whole games via replay_text (JSON in/out)", "games/s",
               summary(replay_rates), note=f"10 turns per game = {summary(replay_rates)['median'] * 10:,.0f} turns/s",
               extra={"games_per_repeat": len(scripts)}),
    ]
