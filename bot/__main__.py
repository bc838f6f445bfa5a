"""Command line: ``python -m bot`` runs the Discord bot; sub-commands run offline tools."""

import argparse
import json
import sys
from collections.abc import Sequence


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Number board games on Discord.")
    sub = parser.add_subparsers(dest="command")
    replay = sub.add_parser("replay", help="replay a game of The Number from a JSON script")
    replay.add_argument("file", help="the script file, or - for standard input")
    replay.set_defaults(func=_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        from bot.run import run_bot

        return run_bot()
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
