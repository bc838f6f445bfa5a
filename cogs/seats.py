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


AI_SUFFIX = " (AI)"  # what an AI seat's stored name ends with (cogs/table names them "Ada (AI)")
AI_MARK = " 🤖"  # how every message marks an AI seat, once


def plain_name(name: str, is_ai: bool) -> str:
    """A seat's name without the stored " (AI)" of an AI seat: messages mark an AI once, with :data:`AI_MARK`
    ("Ada 🤖", not "Ada (AI) 🤖"). A human who calls themself "Bo (AI)" keeps their name."""
    return name[: -len(AI_SUFFIX)] if is_ai and name.endswith(AI_SUFFIX) else name


def marked_name(name: str, is_ai: bool) -> str:
    """A seat's name fit for an embed (:func:`safe_name`), an AI's marked once: "Ada 🤖"."""
    return safe_name(plain_name(name, is_ai)) + (AI_MARK if is_ai else "")
