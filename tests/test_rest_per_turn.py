"""The Number's rate-limited REST calls per turn (issue 15.3), through the bench's own counter (bench/api_economy.py):
a whole 5-player game per case, every turn counted from its first choice to the next turn's message.

With everyone choosing through the turn message's button and modal, a turn costs at most 2 calls (the reveal
posted with the next turn message, the reminder edit), burst or spread over the timer; by DM, the N
acknowledgements + 2 (that post and the close of the previous message). A status edit per choice or a
reminder DM to a player not awaited would break these. The reminder DMs (issue 36: every awaited player is
reminded, whatever path the others used) are counted apart: at most one per awaited player, none in a burst.
"""

import random
from pathlib import Path

import discord
import pytest

from bench.api_economy import PLAYERS, game_turns, limit_for
from cogs.table.presenter import Card, Picture
from cogs.table.turn_messages import combined


@pytest.mark.parametrize("spread", [False, True], ids=["burst", "spread"])
@pytest.mark.parametrize("path", ["modal", "dm"])
async def test_a_turn_costs_at_most_its_budget_of_rate_limited_calls(tmp_path: Path, path: str, spread: bool) -> None:
    turns, violations = await game_turns(path, spread, tmp_path, random.Random(11))
    assert len(turns) == 10 and not violations, violations
    others = [t["other"] for t in turns]
    assert max(others) <= limit_for(path), others
    # spread: at the 30 s reminder the players choosing at 35 and 45 s are awaited (one who sits out is not);
    # a burst ends before it
    reminders = [t["reminder"] for t in turns]
    assert (max(reminders) == 2 and min(reminders) >= 1) if spread else not any(reminders), reminders
    if path == "dm":  # every DM is answered: the budget is not met by dropping acknowledgements
        assert min(others) >= len(PLAYERS) - 1, others
    else:  # the modal's answers and acknowledgements go through the interaction, not the global limit
        assert min(t["interaction"] for t in turns) >= len(PLAYERS), turns


def test_a_report_goes_with_the_turn_message_only_within_discords_limits() -> None:
    one = Card("a", (discord.Embed(description="x" * 3001),))
    together = combined(one, Card(None, (discord.Embed(title="turn"),)))
    assert together is not None and together.content == "a" and len(together.embeds) == 2
    assert combined(one, one) is None  # 6,000 characters of embeds at most
    assert combined(Card(embeds=tuple(discord.Embed(title=str(i)) for i in range(9))), Card(embeds=(
        discord.Embed(title="9"), discord.Embed(title="10")))) is None  # 10 embeds at most
    assert combined(Card(pictures=(Picture("a.png", b""),)), Card("turn")) is None  # pictures go alone
