"""Terminal front ends for every game: a human-vs-AI game per game, an AI-only arena, the replay (no Discord)."""

HUMAN = "you"  # the human always sits in seat 0


def seat_names(players: int) -> list[str]:
    """How a terminal game names its seats: you, bot1, bot2..."""
    return [HUMAN, *(f"bot{i}" for i in range(1, players))]
