"""The replay against a plain, independent reading of RULES.md on random scripts (unfit picks included)."""

from collections import Counter
from random import Random
from typing import Any

import pytest

from bot.games.binomial.replay import replay
from bot.games.binomial.rules import CARD_KEYS, CELLS
from tests.test_binomial_rules import PLAIN_POINTS, plain_better, plain_fits


def plain_replay(data: dict[str, Any]) -> dict[str, Any]:
    players, options = data["players"], data.get("options", {})
    grid = {p: [0] * 16 for p in players}
    for i, digit in enumerate(data["rolls"]):
        for p in players:
            grid[p][CELLS.index(data["placements"][p][i])] = digit
    sheets = {p: [f"{grid[p][2 * k]}{grid[p][2 * k + 1]}" for k in range(8)] for p in players}
    unused = {p: list(sheets[p]) for p in players}
    chairman, scores, rounds = data["chairman"], dict.fromkeys(players, 0), []
    for r, picks in enumerate(data["rounds"]):
        key = data["deck"][r]
        for p, x in picks.items():
            unused[p].remove(x)
        x_points = len(picks)
        worth = PLAIN_POINTS.get(key, x_points)
        bonus = 1 if options.get("reward_for_fighting") and len(picks) >= 3 else 0
        fit = {p: x for p, x in picks.items() if plain_fits(key, int(x))}
        counts = Counter(fit.values())
        left = {p: x for p, x in fit.items() if counts[x] == 1}
        cancelled = sorted(x for x, c in counts.items() if c > 1)
        winner, points = None, 0
        if left:
            if options.get("same_boat"):
                winner = max(left, key=lambda p: int(left[p]))
                for p in (left if cancelled else [winner]):
                    scores[p] += worth
                scores[winner] += bonus
            else:
                winner = next(p for p in left if all(plain_better(key, int(left[p]), int(left[q]))
                                                      for q in left if q != p))
                scores[winner] += worth + bonus
            points, chairman = worth + bonus, winner
        rounds.append({"round": r + 1, "card": key, "fighters": dict(picks), "cancelled": cancelled,
                       "unfit": sorted(p for p in picks if p not in fit), "winner": winner, "points": points,
                       "chairman": chairman})
    best = max(scores.values())
    return {"sheets": sheets, "rounds": rounds, "scores": scores,
            "winners": sorted(p for p in players if scores[p] == best)}


def random_script(seed: int) -> dict[str, Any]:
    rng = Random(seed)
    players = [f"p{i}" for i in range(rng.randint(2, 7))]
    rolls = [rng.randrange(10) for _ in range(16)]
    placements = {p: rng.sample(list(CELLS), 16) for p in players}
    options = {k: rng.random() < 0.4 for k in ("dark", "openness", "reward_for_fighting")}
    if len(players) >= 6:
        options["same_boat"] = rng.random() < 0.5
    data = {"game": "binomial", "players": players, "options": options, "chairman": rng.choice(players),
            "rolls": rolls, "placements": placements, "deck": rng.sample(list(CARD_KEYS), 16), "rounds": []}
    sheet = plain_replay(data)["sheets"]
    unused = {p: list(sheet[p]) for p in players}
    stop = rng.randint(0, 16)
    for _ in range(stop):
        picks = {}
        for p in players:
            if rng.random() < 0.5:
                picks[p] = rng.choice(unused[p])
                unused[p].remove(picks[p])
        data["rounds"].append(picks)
        if any(not u for u in unused.values()):
            break
    return data


@pytest.mark.parametrize("seed", range(300))
def test_replay_matches_a_plain_reading(seed: int) -> None:
    data = random_script(seed)
    mine = replay(data)
    plain = plain_replay(data)
    for r in plain["rounds"]:
        r["fighters"] = dict(sorted(r["fighters"].items(), key=lambda kv: data["players"].index(kv[0])))
    assert mine["sheets"] == plain["sheets"]
    assert [dict(r, fighters=dict(r["fighters"])) for r in mine["rounds"]] == plain["rounds"]
    assert mine["scores"] == plain["scores"] and mine["winners"] == plain["winners"]
