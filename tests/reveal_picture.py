"""The README's picture of a reveal, rendered by the bot's own embed code (cogs/thenumber/render.py).

``python -m tests.reveal_picture`` prints it; ``--write`` puts it into README.md between the markers.
tests/test_readme.py fails when the README's block and this rendering differ, so the picture cannot drift.

The text is the embed as Discord shows it: title, description and fields in order, with the markdown
applied (bold and code marks dropped, struck-through digits drawn with a combining long stroke).
"""

import re
import sys
from pathlib import Path
from typing import Any

from bot.games.thenumber.engine import choose, new_game, public_view, resolve_turn
from cogs.seats import safe_name
from cogs.table.presenter import SeatInfo
from cogs.thenumber.records import seat_key
from cogs.thenumber.render import reveal_embeds
from storage.base import SeatRecord

README = Path(__file__).resolve().parents[1] / "README.md"
START, END = "<!-- reveal picture: start -->", "<!-- reveal picture: end -->"
STRIKE = "\u0336"

SEATS = (SeatRecord(0, 101, "Ana"), SeatRecord(1, 102, "Ben"), SeatRecord(2, 103, "Cy"),
         SeatRecord(3, None, "Robot", ai_level="normal"))
# Round 1: turn 1 crosses some digits; turn 2 is the one pictured (Cy misses the timer).
TURNS = ({"Ana": "513", "Ben": "761", "Cy": "220", "Robot": "444"},
         {"Ana": "890", "Ben": "207", "Robot": "678"})


def sample_embeds(lang: str = "en") -> list[Any]:
    """The reveal of the second turn, as The Number's presenter draws it from the table's views."""
    keys = {s.name: seat_key(s) for s in SEATS}
    state = new_game([seat_key(s) for s in SEATS])
    for numbers in TURNS:
        for name, number in numbers.items():
            state = choose(state, keys[name], number)
        before = state
        state, outcome = resolve_turn(state)
    seats = [SeatInfo(s.seat, safe_name(s.name), s.is_ai) for s in SEATS]
    return reveal_embeds(outcome, public_view(before), public_view(state), seats, 7, True, lang)


def as_seen(markdown: str) -> str:
    """Discord markdown as it looks on screen, in plain text."""
    text = re.sub(r"~~(.+?)~~", lambda m: "".join(c + STRIKE for c in m.group(1)), markdown)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"(?<!\w)\*(.+?)\*(?!\w)", r"\1", text)
    return text.replace("`", "")


def embed_text(embed: dict[str, Any]) -> list[str]:
    lines = [as_seen(embed["title"]), ""] if embed.get("title") else []
    if embed.get("description"):
        lines += [as_seen(embed["description"]), ""]
    for field in embed.get("fields", []):
        lines += [as_seen(field["name"]), as_seen(field["value"]), ""]
    return lines


def picture() -> str:
    lines: list[str] = []
    for embed in sample_embeds("en"):
        lines += embed_text(embed.to_dict())  # type: ignore[arg-type]
    return "\n".join(lines).strip() + "\n"


def readme_block(text: str) -> str:
    """What sits between the README's markers (the fenced block included)."""
    return text.split(START, 1)[1].split(END, 1)[0].strip("\n")


def fenced(picture_text: str) -> str:
    return f"```text\n{picture_text}```"


def main(argv: list[str]) -> int:
    if "--write" in argv:
        text = README.read_text(encoding="utf-8")
        head, rest = text.split(START, 1)
        tail = rest.split(END, 1)[1]
        README.write_text(f"{head}{START}\n{fenced(picture())}\n{END}{tail}", encoding="utf-8")
    else:
        sys.stdout.write(picture())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
