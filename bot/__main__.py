"""Command line: ``python -m bot`` runs the Discord bot; sub-commands run offline tools."""

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "number-games-bot"
SEED_LIMIT = 1_000_000  # drawn seeds stay short enough to type back


def version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def script_out_problem(path: str) -> str | None:
    """Why the replay script could not be written to ``path``, checked before the game starts."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        return f"{path} is a folder"
    if not folder.is_dir():
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK) or (target.exists() and not os.access(target, os.W_OK)):
        return f"{path} is not writable"
    return None


def _replay(args: argparse.Namespace) -> int:
    from bot.games.thenumber.replay import ScriptError, replay_text

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        result = replay_text(text)
    except ScriptError as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return 2
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


def _play(args: argparse.Namespace) -> int:
    from bot.terminal.play import play_game, write_script

    seed = args.seed if args.seed is not None else random.randrange(SEED_LIMIT)
    result = play_game(args.players, args.level, seed, inp=sys.stdin, out=sys.stdout)
    if args.script_out and result.completed:
        write_script(result, args.script_out)
    return 0 if result.completed else 1


def _arena(args: argparse.Namespace) -> int:
    from bot.terminal.arena import main_arena

    return main_arena(args.games, args.seats, args.seed, args.workers, args.json)


def _add_game_commands(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from bot.games.thenumber.ai import DEFAULT_LEVEL, LEVELS
    from bot.games.thenumber.rules import MAX_SEATS, MIN_SEATS

    play = sub.add_parser("play", help="play The Number in the terminal against AI players")
    play.add_argument("--players", type=int, default=4, choices=range(MIN_SEATS, MAX_SEATS + 1),
                      help="seats in total, you included (default 4)")
    play.add_argument("--level", choices=LEVELS, default=DEFAULT_LEVEL, help="AI level (default normal)")
    play.add_argument("--seed", type=int, default=None,
                      help="seed of the AI players (default: a random one, printed so the game can be replayed)")
    play.add_argument("--script-out", metavar="FILE",
                      help="write the finished game's replay script here (the folder must exist)")
    play.set_defaults(func=_play)

    arena = sub.add_parser(
        "arena", help="AI-only games: win rates per level",
        description="Plays AI-only games of The Number. Figures are per level; a level in several seats is "
                    "counted once per seat per game (its 'games' are seat-games), and ties share the win.")
    arena.add_argument("--games", type=positive_int, default=200, help="number of games (default 200)")
    arena.add_argument("--seats", nargs="+", choices=LEVELS, default=["hard", "normal", "normal", "normal"],
                       metavar="LEVEL", help=f"one level per seat, {MIN_SEATS}-{MAX_SEATS} seats "
                       "(default: hard normal normal normal)")
    arena.add_argument("--seed", type=int, default=0, help="seed (the same seed gives the same figures)")
    arena.add_argument("--workers", type=positive_int, default=2, help="processes (default 2)")
    arena.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    arena.set_defaults(func=_arena)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Number board games on Discord. With no command, python -m bot starts the Discord bot "
                    "(it needs DISCORD_TOKEN, from the environment or .env; see README.md). The commands below "
                    "run offline, without Discord.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", title="commands")
    replay = sub.add_parser("replay", help="replay a game of The Number from a JSON script")
    replay.add_argument("file", help="the script file, or - for standard input")
    replay.set_defaults(func=_replay)
    _add_game_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "arena" and not 2 <= len(args.seats) <= 5:
        parser.error("arena: --seats needs 2 to 5 levels")
    if args.command == "play" and args.script_out and (problem := script_out_problem(args.script_out)):
        parser.error(f"play: --script-out: {problem}")
    if args.command is None:
        from bot.run import run_bot

        return run_bot()
    return int(args.func(args))


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C outside a game's prompt (the game handles its own): no traceback
        sys.exit(130)
