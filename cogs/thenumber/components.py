"""Buttons, the AI select and the number modal. Their custom_ids carry the game (and turn), so they
keep working after a restart: discord.py rebuilds them from the id (DynamicItem)."""

import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.games.thenumber import rules
from bot.i18n import DEFAULT, t

if TYPE_CHECKING:
    from .cog import TheNumberCog

AI_LEVELS = ("easy", "normal", "hard")
MODAL_ID = re.compile(r"tn:pick:(?P<game>\d+):(?P<phase>\d+)")
NUMBER_FIELD_ID = "number"


def _cog(interaction: discord.Interaction[Any]) -> "TheNumberCog":
    cog = interaction.client.get_cog("TheNumber")  # type: ignore[attr-defined]
    assert cog is not None
    return cog  # type: ignore[no-any-return]


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"tn:(?P<action>join|leave|start|cancel):(?P<game>\d+)"):
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
    }

    def __init__(self, action: str, game_id: int, lang: str = DEFAULT) -> None:
        super().__init__(discord.ui.Button(label=t(f"button.{action}", lang), style=self.STYLES[action],
                                           custom_id=f"tn:{action}:{game_id}"))
        self.action, self.game_id = action, game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "LobbyButton":
        return cls(match["action"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).lobby_action(interaction, self.action, self.game_id)


class AddAISelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"tn:ai:(?P<game>\d+)"):
    def __init__(self, game_id: int, lang: str = DEFAULT) -> None:
        options = [discord.SelectOption(label=t("ai.option", lang, level=t(f"ai.level.{level}", lang)), value=level)
                   for level in AI_LEVELS]
        super().__init__(discord.ui.Select(custom_id=f"tn:ai:{game_id}", placeholder=t("ai.placeholder", lang),
                                           options=options, min_values=1, max_values=1))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "AddAISelect":
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        level = self.item.values[0] if self.item.values else "normal"
        await _cog(interaction).add_ai(interaction, self.game_id, level)


class ChooseButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"tn:choose:(?P<game>\d+):(?P<phase>\d+)"):
    def __init__(self, game_id: int, phase: int, lang: str = DEFAULT) -> None:
        super().__init__(discord.ui.Button(label=t("button.choose", lang), emoji="🤫",
                                           style=discord.ButtonStyle.primary, custom_id=f"tn:choose:{game_id}:{phase}"))
        self.game_id, self.phase = game_id, phase

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "ChooseButton":
        return cls(int(match["game"]), int(match["phase"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).open_choice_modal(interaction, self.game_id, self.phase)


class ChoiceModal(discord.ui.Modal):
    """Only sent, never kept: submissions are handled from the custom_id (see TheNumberCog.on_interaction),
    so a modal opened before a restart still works after it."""

    def __init__(self, game_id: int, phase: int, round_no: int, turn: int, lang: str = DEFAULT) -> None:
        super().__init__(title=t("modal.title", lang, round=round_no, turn=turn),
                         custom_id=f"tn:pick:{game_id}:{phase}", timeout=None)
        self.add_item(discord.ui.TextInput(
            label=t("modal.label", lang), placeholder=t("modal.placeholder", lang), min_length=rules.NUMBER_LENGTH,
            max_length=rules.NUMBER_LENGTH, custom_id=NUMBER_FIELD_ID))


def lobby_view(game_id: int, lang: str, *, open_seats: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start", "cancel"):
        button = LobbyButton(action, game_id, lang)
        if action == "join" and not open_seats:
            button.item.disabled = True
        view.add_item(button)
    if open_seats:
        view.add_item(AddAISelect(game_id, lang))
    return view


def turn_view(game_id: int, phase: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ChooseButton(game_id, phase, lang))
    return view


DYNAMIC_ITEMS = (LobbyButton, AddAISelect, ChooseButton)
