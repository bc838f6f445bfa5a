"""An independent, deliberately naive scorer of The Number, written from RULES.md alone.

Tests compare the engine with it; it shares no code with ``bot``.
"""

from typing import Any

BONUS = {1: 2, 2: 3, 3: 4, 4: 6, 5: 8}


def score_game(players: list[str], rounds: list[list[dict[str, str]]]) -> dict[str, Any]:
    turns_out = []
    round_totals: dict[str, list[int]] = {p: [] for p in players}
    for r, turns in enumerate(rounds, start=1):
        crossed: dict[str, set[str]] = {p: set() for p in players}
        turn_points: dict[str, int] = {p: 0 for p in players}
        for t, turn in enumerate(turns, start=1):
            statuses: dict[str, str] = {}
            numbers: dict[str, str | None] = {}
            for p in players:
                if len(crossed[p]) == 10:
                    statuses[p], numbers[p] = "exhausted", None
                elif p not in turn:
                    statuses[p], numbers[p] = "missing", None
                elif set(turn[p]) & crossed[p]:
                    statuses[p], numbers[p] = "invalid", turn[p]
                else:
                    statuses[p], numbers[p] = "valid", turn[p]
            valid = [p for p in players if statuses[p] == "valid"]
            for p in valid:
                mine = numbers[p]
                assert mine is not None
                smaller = [numbers[q] for q in valid if int(numbers[q] or 0) < int(mine)]
                statuses[p] = "eliminated" if any(set(s or "") & set(mine) for s in smaller) else "approved"
            approved = [p for p in players if statuses[p] == "approved"]
            top = max((int(numbers[p] or 0) for p in approved), default=None)
            results = {}
            for p in players:
                pts = 0
                if statuses[p] == "approved":
                    n = numbers[p] or ""
                    pts = int(n[0]) * (2 if t == 5 else 1)
                    if int(n) == top:
                        pts += BONUS[t]
                    crossed[p] |= set(n)
                turn_points[p] += pts
                results[p] = {"number": numbers[p], "status": statuses[p], "points": pts}
            turns_out.append({"round": r, "turn": t, "results": results})
        for p in players:
            round_totals[p].append(turn_points[p] + len(crossed[p]))
    final = {p: sum(v) for p, v in round_totals.items()}
    best = max(final.values())
    return {"turns": turns_out, "round_totals": round_totals, "final": final,
            "winners": sorted(p for p in players if final[p] == best)}
