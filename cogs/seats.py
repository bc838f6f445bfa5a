"""How seats look in any game: a colour and a symbol each, so colour-blind players can tell them apart."""

import functools
from dataclasses import dataclass

import discord


@dataclass(frozen=True, slots=True)
class SeatStyle:
    colour_name: str
    symbol: str  # a different shape for every colour
    colour: discord.Colour


SEAT_STYLES: tuple[SeatStyle, ...] = (
    SeatStyle("red", "🔺", discord.Colour.red()),
    SeatStyle("blue", "🔷", discord.Colour.blue()),
    SeatStyle("green", "🟢", discord.Colour.green()),
    SeatStyle("yellow", "⭐", discord.Colour.gold()),
    SeatStyle("purple", "🟪", discord.Colour.purple()),
    SeatStyle("orange", "🔶", discord.Colour.orange()),
    SeatStyle("white", "⚪", discord.Colour.light_grey()),
)

NAME_LIMIT = 32


def seat_style(seat: int) -> SeatStyle:
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


@functools.lru_cache(maxsize=4096)  # every turn message and reveal draws every seat's name again
def safe_name(name: str) -> str:
    """A display name fit for an embed: cut to 32 characters, markdown and mentions defused."""
    short = name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(short))
