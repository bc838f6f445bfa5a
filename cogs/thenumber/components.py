"""The ``tn:`` buttons, select and modal of messages posted before The Number moved onto the shared front end.

Those messages are still in channels: their custom_ids (``tn:join:7``, ``tn:ai:7``, ``tn:choose:7:3``, the
modal ``tn:pick:7:3``) keep answering, rebuilt by discord.py from the id (DynamicItem) and handed to the shared
cog, which serves them as its own ``play:thenumber:`` ones (the modal through ``legacy_modal`` of the presenter,
legacy.py). New messages carry the shared ids.
"""

import re
from typing import Any

import discord

from cogs.table.components import InputRouter

from .presenter import KEY

Interaction = discord.Interaction[Any]


def _cog(interaction: Interaction) -> InputRouter:
    return interaction.client.get_cog("Table")  # type: ignore[attr-defined,no-any-return]


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"tn:(?P<action>join|leave|start|cancel):(?P<game>\d+)"):
    def __init__(self, action: str, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=action, custom_id=f"tn:{action}:{game_id}"))
        self.action, self.game_id = action, game_id

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> "LobbyButton":
        return cls(match["action"], int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        await _cog(interaction).lobby_action(interaction, self.action, self.game_id)


class AddAISelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"tn:ai:(?P<game>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tn:ai:{game_id}", options=[discord.SelectOption(label="-")]))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> "AddAISelect":
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        await _cog(interaction).add_ai(interaction, self.game_id, str(values[0]) if values else "normal")


class ChooseButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"tn:choose:(?P<game>\d+):(?P<phase>\d+)"):
    def __init__(self, game_id: int, phase: int) -> None:
        super().__init__(discord.ui.Button(label="choose", custom_id=f"tn:choose:{game_id}:{phase}"))
        self.game_id, self.phase = game_id, phase

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> "ChooseButton":
        return cls(int(match["game"]), int(match["phase"]))

    async def callback(self, interaction: Interaction) -> None:
        await _cog(interaction).open_private(interaction, KEY, self.game_id, self.phase)


DYNAMIC_ITEMS = (LobbyButton, AddAISelect, ChooseButton)
