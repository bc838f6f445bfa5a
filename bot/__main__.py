"""Command line: ``python -m bot`` runs the Discord bot; sub-commands run offline tools."""

import argparse
import json
import os
import random
import sys
import textwrap
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.core.game import Game

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
    from bot.terminal.replay import ERRORS, replay_any

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
        result = replay_any(text, args.game)
    except ERRORS as exc:
        print(" ".join(str(exc).splitlines()), file=sys.stderr)
        return 2
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


def _migrate_db(args: argparse.Namespace) -> int:
    """Copy the SQLite database into an empty PostgreSQL one and print the proof (counts and checksums)."""
    import asyncio
    import sqlite3

    import asyncpg

    from bot.run import StartupError, load_settings
    from storage.base import StoreError
    from storage.copy import copy_sqlite_to_postgres
    from storage.pg_connection import is_postgres_url

    if not is_postgres_url(args.to):
        print("--to must be a postgresql:// URL", file=sys.stderr)
        return 2
    try:
        source = args.source or str(load_settings().database_path)
        report = asyncio.run(copy_sqlite_to_postgres(source, args.to))
    except (StartupError, StoreError, sqlite3.Error, asyncpg.PostgresError, OSError) as exc:
        print(" ".join(f"migrate-db: {exc}".split()), file=sys.stderr)
        return 2
    print(f"copied {report.source} into {report.target}")
    for check in report.tables:
        print(f"{check.table}: {check.rows} rows, sha256 {check.sha256} (equal in both)")
    print("verified: every table has the same rows in both databases")
    return 0


def _ratings(args: argparse.Namespace) -> int:
    """Recompute every rating from the stored games and say whether they equal the stored ones (exit 1 if not)."""
    import asyncio

    from bot.run import StartupError, load_settings
    from storage.base import StoreError

    try:
        lines, equal = asyncio.run(_recompute(load_settings()))
    except (StartupError, StoreError, OSError) as exc:
        print(" ".join(f"ratings: {exc}".split()), file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0 if equal else 1


async def _recompute(settings: Any) -> tuple[list[str], bool]:
    from bot.core.rating_check import recompute_from
    from bot.core.stats import summariser
    from bot.games import GAMES
    from storage.backend import make_stats, make_store

    store = make_store(settings.database_url, settings.database_path,
                       busy_timeout_ms=settings.database_busy_timeout_ms)
    async with store:
        stats = make_stats(store, summariser(GAMES), [g.key for g in GAMES],
                           busy_timeout_ms=settings.database_busy_timeout_ms)
        if stats is None:
            return ["ratings: nothing to recompute (the database is in memory)"], True
        async with stats:
            report = await recompute_from(stats, GAMES)
    return report.lines(), report.equal


def _play(args: argparse.Namespace) -> int:
    from bot.games import game_for
    from bot.terminal.console import Console, Seats
    from bot.terminal.table import Table, write_script

    seed = args.seed if args.seed is not None else random.randrange(SEED_LIMIT)
    console = Console(sys.stdin, sys.stdout)
    names = (args.name, *(f"bot{i}" for i in range(1, args.players)))
    table = Table(game_for(args.game), Seats(names, shapes=console.colour), args.level, seed, args.options, console)
    status = table.play()
    if args.script_out and table.played.finished:
        write_script(table, args.script_out)
        console.note(f"Replay script written to {args.script_out} (python -m bot replay {args.script_out} "
                     "replays the game).")
    return status


def _arena(args: argparse.Namespace) -> int:
    from bot.terminal.arena import main_arena

    return main_arena(args.games, args.seats, args.seed, args.workers, args.json, game=args.game)


def _games() -> "tuple[Game[Any, Any, Any], ...]":
    from bot.games import GAMES

    return GAMES


DEFAULT_SEATS = ("hard", "normal", "normal", "normal")
DEFAULT_LEVEL = "normal"


def default_name() -> str:
    """The human's name at the table: the login name (a superuser's "root" reads badly: Player then)."""
    import getpass

    try:
        name = getpass.getuser()
    except (OSError, KeyError):
        return "Player"
    return name if name.isprintable() and 0 < len(name) <= 16 and name != "root" else "Player"


def _flags() -> dict[str, list["Game[Any, Any, Any]"]]:
    """Every on/off table option of any game, with the games that have it."""
    flags: dict[str, list[Game[Any, Any, Any]]] = {}
    for game in _games():
        for option in game.options:
            if isinstance(option.default, bool):
                flags.setdefault(option.name, []).append(game)
    return flags


def _flag_help(name: str, games: "list[Game[Any, Any, Any]]") -> str:
    from bot.terminal.screen import Words, screen_for

    texts = [f"{game.title}: {screen_for(game).option_help(name, Words())}" for game in games]
    return "; ".join(texts).replace("%", "%%")


def _add_game_commands(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    games = _games()
    keys = [g.key for g in games]
    seats = ", ".join(f"{g.title} {g.seats.start}-{g.seats.stop - 1}" for g in games)
    levels = "; ".join(f"{g.title} {', '.join(g.ai_levels)}" for g in games)
    play = sub.add_parser(
        "play", help="play a game in the terminal against AI players",
        description=f"Plays one game in the terminal: you against AI players. --players and --level follow the "
                    f"game: players {seats}; levels {levels}. At the prompt: a move as the menu shows it, help "
                    "(or ? or rules), board, quit (or q). Exit status 0 when the game is over, 1 when left, 130 "
                    "after Ctrl-C.")
    play.add_argument("--game", choices=keys, default=keys[0], help=f"the game (default {keys[0]})")
    play.add_argument("--name", default=default_name(), help="your name at the table (default: your login name)")
    play.add_argument("--players", type=int, default=4, help="seats in total, you included (default 4)")
    play.add_argument("--level", default=DEFAULT_LEVEL, help="AI level (default normal)")
    play.add_argument("--seed", type=int, default=None,
                      help="seed of the game (default: a random one, printed so the game can be replayed)")
    play.add_argument("--script-out", metavar="FILE",
                      help="write the finished game's replay script here, for python -m bot replay (the folder "
                           "must exist)")
    for name, having in _flags().items():
        play.add_argument(f"--{name.replace('_', '-')}", dest=f"flag_{name}", action="store_true",
                          help=_flag_help(name, having))
    play.set_defaults(func=_play, check=check_play, parser=play)

    arena = sub.add_parser(
        "arena", help="AI-only games: win rates per level",
        description="Plays AI-only games of a game. Figures are per level; a level in several seats is "
                    "counted once per seat per game (its 'games' are seat-games), and ties share the win.")
    arena.add_argument("--game", choices=keys, default=keys[0], help=f"the game (default {keys[0]})")
    arena.add_argument("--games", type=positive_int, default=200, help="number of games (default 200)")
    arena.add_argument("--seats", nargs="+", default=None, metavar="LEVEL",
                       help="one AI level per seat, as many seats as the game allows "
                            f"(default: {' '.join(DEFAULT_SEATS)})")
    arena.add_argument("--seed", type=int, default=0, help="seed (the same seed gives the same figures)")
    arena.add_argument("--workers", type=positive_int, default=2, help="processes (default 2)")
    arena.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    arena.set_defaults(func=_arena, check=check_arena, parser=arena)


def replay_help() -> str:
    """What ``replay --help`` says: the envelope, and each game's table script as its replay module says."""
    from bot.terminal.replay import replay_module

    lines = ["What the JSON holds decides how it is read:",
             '- {"game", "format": 1, "seats", "options", "seed", "steps"}: any game\'s export envelope; prints '
             '{"game", "seats", "steps": count, "ended", "scores": {seat name: points}, "winners": [names in seat '
             'order], "figures": {seat name: the game\'s per-seat figures}, "table": the table\'s view} (scores, '
             'winners and figures are null while the game is not over; seats in "table" are numbered 0..)',
             "- a game's own table script:"]
    for game in _games():
        module = replay_module(game)
        if module is not None:
            lines.append(f"  - {game.title}: {getattr(module, 'SCRIPT_HELP', 'see its replay module')}")
    lines.append("Bad input prints one line on standard error and exits with status 2.")
    return "\n".join(textwrap.fill(line, 79, subsequent_indent=" " * (line.index("-") + 2 if "-" in line[:4] else 0))
                     for line in lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Number board games on Discord. With no command, python -m bot starts the Discord bot "
                    "(it needs DISCORD_TOKEN, from the environment or .env; see README.md). The commands below "
                    "run offline, without Discord.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", title="commands")
    replay = sub.add_parser("replay", help="replay a game from a JSON script or export envelope",
                            description="Replays a game and prints the result as one JSON object.",
                            epilog=replay_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    replay.add_argument("file", help="the script file, or - for standard input")
    replay.add_argument("--game", choices=[g.key for g in _games()], default=None,
                        help="the game the file must be of (default: the one it names)")
    replay.set_defaults(func=_replay)
    migrate = sub.add_parser("migrate-db", help="copy the SQLite database into an empty PostgreSQL database",
                             description="Copies every game, seat, action, setting and statistic of the SQLite "
                                         "database into an empty PostgreSQL database, then checks that both hold "
                                         "the same rows. Stop the bot first; then set DATABASE_URL to the target.")
    migrate.add_argument("--to", required=True, metavar="URL", help="postgresql://user@host:port/database (empty)")
    migrate.add_argument("--from", dest="source", metavar="PATH",
                         help="the SQLite file (default: DATABASE_PATH from the environment or .env)")
    migrate.set_defaults(func=_migrate_db)
    ratings = sub.add_parser("ratings", help="recompute every rating from the stored games and compare",
                             description="Replays every rated game from its stored log, in the order they were "
                                         "rated, and compares each rating change and each current rating with "
                                         "the stored value. Prints the counts and 'equal', or the differences "
                                         "(exit status 1). Writes nothing; safe while the bot runs.")
    ratings.add_argument("--recompute", action="store_true", required=True,
                         help="recompute and compare (the only action)")
    ratings.set_defaults(func=_ratings)
    _add_game_commands(sub)
    return parser


def _seat_problem(game: "Game[Any, Any, Any]", seats: int, what: str) -> str | None:
    if seats in game.seats:
        return None
    return f"{game.title} is for {game.seats.start} to {game.seats.stop - 1} {what}, not {seats}"


def _level_problem(game: "Game[Any, Any, Any]", level: str) -> str | None:
    if level in game.ai_levels:
        return None
    return f"{level!r} is not an AI level of {game.title} (choose from {', '.join(game.ai_levels)})"


def check_play(args: argparse.Namespace) -> str | None:
    """Why the play command's arguments do not fit the chosen game (None: they do); sets ``args.options``."""
    from bot.games import game_for

    game = game_for(args.game)
    if problem := _seat_problem(game, args.players, "players"):
        return f"argument --players: {problem}"
    if problem := _level_problem(game, args.level):
        return f"argument --level: {problem}"
    args.options = {}
    known = {o.name: o for o in game.options}
    for name in _flags():
        if not getattr(args, f"flag_{name}"):
            continue
        flag = f"--{name.replace('_', '-')}"
        option = known.get(name)
        if option is None:
            return f"argument {flag}: {game.title} has no such option"
        if option.seats is not None and args.players not in option.seats:
            return f"argument {flag}: only with {option.seats.start} to {option.seats.stop - 1} players"
        args.options[name] = True
    if args.script_out and (problem := script_out_problem(args.script_out)):
        return f"--script-out: {problem}"
    return None


def check_arena(args: argparse.Namespace) -> str | None:
    """Why the arena's seats do not fit the chosen game (None: they do); fills in the default seats."""
    from bot.games import game_for

    game = game_for(args.game)
    if args.seats is None:
        fits = set(DEFAULT_SEATS) <= set(game.ai_levels) and len(DEFAULT_SEATS) in game.seats
        args.seats = list(DEFAULT_SEATS) if fits else [game.ai_levels[-1]] * game.seats.start
    if problem := _seat_problem(game, len(args.seats), "seats"):
        return f"--seats: {problem}"
    for level in args.seats:
        if problem := _level_problem(game, level):
            return f"--seats: {problem}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    check = getattr(args, "check", None)
    if check is not None and (problem := check(args)):
        args.parser.error(problem)  # the sub-command's usage, not the top level's
    if args.command is None:
        from bot.run import run_bot

        return run_bot()
    return int(args.func(args))


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C outside a game's prompt (the game handles its own): no traceback
        sys.exit(130)
