"""An extension for the Discord tests: the toy games of tests/toy_games.py on the shared front end.

``race`` is open with one "Move" button standing for all its actions (a private select of them); ``bids`` is
sealed with a short legal list (a "Bid secretly" button opening private buttons). Each seat of ``bids`` has a
secret lucky number: the tests check that it never reaches the channel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.game import Action, Prompt, RuleError, Seat
from cogs.table.presenter import Card, Choice, Happened, Inputs, Presenter, SeatInfo, register
from tests.toy_games import BidView, Moved, RaceState, Revealed


def _card(title: str, text: str) -> Card:
    return Card(embeds=(discord.Embed(title=title, description=text or "-"),))


def _names(seats: Sequence[SeatInfo]) -> dict[int, str]:
    return {s.seat: s.name for s in seats}


class ToyPresenter(Presenter):
    colour = discord.Colour.dark_grey()

    def __init__(self, key: str) -> None:
        self.key = key

    def title(self, lang: str) -> str:
        return f"Toy {self.key}"

    def lobby(self, options: Mapping[str, Any], lang: str) -> str:
        return f"A toy game, {options.get('turn_seconds')} s per turn."

    def rules(self, lang: str) -> Card:
        return _card("Rules", "toy")

    def _line(self, h: Happened, seats: Sequence[SeatInfo]) -> str:
        names, event = _names(seats), h.event
        if isinstance(event, Moved):
            return f"{names[event.seat]} moved {event.steps} to {event.to}."
        if isinstance(event, Revealed):
            bids = ", ".join(f"{names[s]} bid {b}" for s, b in event.bids.items())
            return f"Round {event.round}: {bids}."
        return ""

    def status(self, view: Any, prompt: Prompt, seats: Sequence[SeatInfo], since: Sequence[Happened],
               lang: str) -> Card:
        names = _names(seats)
        lines = [self._line(h, seats) for h in since]
        if isinstance(view, RaceState):
            lines.append(f"{names[view.turn]} rolled {view.die}: your move.")
            return _card(f"Toy race · {names[view.turn]}'s turn", "\n".join(x for x in lines if x))
        lines.append(f"Round {view.round}: bid secretly.")
        lines += [f"{s.name}: {'waiting' if s.awaited else 'has bid'}" for s in seats]
        return _card(f"Toy bids · round {view.round}", "\n".join(x for x in lines if x))

    def done(self, happened: Happened, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        return _card("Toy · done", "\n".join(self._line(h, seats) for h in (*since, happened)))

    def final(self, view: Any, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        return _card("Toy · game over", "\n".join(self._line(h, seats) for h in since))

    def inputs(self, view: Any, prompt: Prompt, seat: Seat, legal: Sequence[Action] | None, lang: str) -> Inputs:
        if isinstance(view, RaceState):
            labels = tuple(f"{a['steps']} squares" for a in legal or ())
            return Inputs(choices=(Choice("Move", tuple(range(len(labels)))),), labels=labels,
                          placeholder="How far?")
        labels = tuple(f"Bid {a['bid']}" for a in legal or ())
        return Inputs(choices=tuple(Choice(label, (i,)) for i, label in enumerate(labels)), labels=labels,
                      private_label="Bid secretly", title="Your bid")

    def ack(self, action: Action, changed: bool, lang: str) -> str:
        if "bid" not in action:  # a race move picked in a private select
            return f"Moved {action['steps']}."
        return f"{'Changed to' if changed else 'Bid'} {action['bid']}, secretly."

    def refusal(self, error: RuleError, lang: str) -> str:
        return str(error)

    def reminder(self, view: Any, seat: Seat, seconds: int, channel_id: int, lang: str) -> str:
        return f"{seconds} s left"

    def score(self, view: Any, seats: Sequence[SeatInfo], lang: str) -> Card:
        if isinstance(view, BidView):
            return _card("Toy scores", " ".join(str(p) for p in view.points))
        return _card("Toy scores", " ".join(str(p) for p in view.positions))

    def board(self, view: Any, seat: Seat, seats: Sequence[SeatInfo], lang: str) -> Card:
        lucky = getattr(view, "lucky", None)
        return _card("Toy board", f"lucky {lucky}" if lucky is not None else "no secret shown")


class ToyCog(commands.Cog, name="Toys"):
    race = app_commands.Group(name="race", description="The toy race")
    bids = app_commands.Group(name="bids", description="The toy bids")

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @race.command(name="start", description="Open a toy race")
    async def race_start(self, interaction: discord.Interaction[Any], ai_players: int = 0) -> None:
        await self.bot.get_cog("Table").open_table(interaction, "race", {"turn_seconds": 60}, ai_players, "greedy")

    @bids.command(name="start", description="Open a toy bids table")
    async def bids_start(self, interaction: discord.Interaction[Any], ai_players: int = 0) -> None:
        await self.bot.get_cog("Table").open_table(interaction, "bids", {"turn_seconds": 60}, ai_players, "half")


async def setup(bot: Any) -> None:
    register(bot, ToyPresenter("race"))
    register(bot, ToyPresenter("bids"))
    await bot.add_cog(ToyCog(bot))
