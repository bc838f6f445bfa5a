"""How strong are the AI levels? ``python -m bench.ai_strength [--games N] [--workers W] [--seed S]``.

Plays the two target matchups (hard against three normal, normal against three easy) and prints each
level's win rate with its 95% Wilson interval, plus the hard level's decision-time percentiles.
Parity in a four-seat game is 25%; targets: hard >= 40%, normal >= 35%. It reports, it never asserts.

``--pool`` instead plays hard in 2, 3, 4 and 5 seats against every strategy of the bench's opponent pool
(:mod:`bench.ai_pool_players`) and a best responder against three hard seats (:mod:`bench.ai_pool`);
``--seats`` and ``--only`` narrow it down. The pool defaults to 1,000 games per matchup.
"""

import argparse
import sys
from collections.abc import Sequence

from bench.ai_pool import SEAT_COUNTS, run_pool
from bot.terminal.arena import format_table, run_arena

MATCHUPS: tuple[tuple[str, tuple[str, ...], float], ...] = (
    ("hard vs 3 normal", ("hard", "normal", "normal", "normal"), 0.40),
    ("normal vs 3 easy", ("normal", "easy", "easy", "easy"), 0.35),
)


def main(argv: Sequence[str] | None = None) -> int:
    # ``--game numeri`` and ``--game binomial`` hand the rest of the command line to that game's benches.
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game", choices=("thenumber", "numeri", "binomial"), default="thenumber")
    known, argv = pre.parse_known_args(argv)
    if known.game == "numeri":
        from bench.ai_strength_numeri import main as numeri_main

        return numeri_main(argv)
    if known.game == "binomial":
        from bench import ai_pool_binomial, ai_strength_binomial

        return (ai_pool_binomial.main if "--pool" in argv else ai_strength_binomial.main)(argv)
    parser = argparse.ArgumentParser(prog="python -m bench.ai_strength", description=__doc__)
    parser.add_argument("--games", type=int, default=None, help="games per matchup (2000; --pool: 1000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", action="store_true", help="hard against the bench's opponent pool")
    parser.add_argument("--seats", type=int, nargs="+", choices=SEAT_COUNTS, default=list(SEAT_COUNTS),
                        help="--pool: the seat counts to play")
    parser.add_argument("--only", nargs="+", default=[], help="--pool: only matchups with these strategies")
    args = parser.parse_args(argv)
    if args.pool:
        return run_pool(args.games or 1000, args.seed, args.workers, args.seats, args.only)
    args.games = args.games or 2000
    for title, seats, target in MATCHUPS:
        print(f"\n## {title}: {args.games} games, seed {args.seed}", flush=True)
        figures = run_arena(args.games, seats, args.seed, args.workers, progress=sys.stderr)
        print(format_table(figures))
        lead = figures[seats[0]]
        print(f"{seats[0]} win rate {lead['win_rate']:.3f} (95% CI {lead['ci95_low']:.3f}-{lead['ci95_high']:.3f}); "
              f"target {target:.2f}, parity {1 / len(seats):.2f}")
        if seats[0] == "hard":
            print(f"hard decision time: p50 {lead['decision_ms_p50']:.2f} ms, p99 {lead['decision_ms_p99']:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
