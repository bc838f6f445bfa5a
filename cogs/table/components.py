"""The shared buttons, selects and modal, rebuilt from their custom_ids (so they work after a restart).

custom_ids: ``play:{game}:lobby:{action}:{id}`` (join, leave, start, cancel, ai); ``play:{game}:again:{id}`` (a
finished game's "Play again"); ``play:{game}:{id}:{step}:{n}``
(the n-th choice of a step), ``...:seal`` (open a private view), ``...:pick`` (a private select of legal
action indices), ``...:choose`` (a select of the turn message: its values are choice indices, as the n of a
button), ``...:text`` (the modal). The step makes every input stale-proof: a press for a step that is
over is answered privately. Nothing here collides with The Number's ``tn:`` ids.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol

import discord

from bot.i18n import DEFAULT, catalog, t

from .presenter import Choice, Inputs

Interaction = discord.Interaction[Any]
LOBBY_ACTIONS = ("join", "leave", "start", "cancel")
TEXT_FIELD_ID = "text"
SELECT_FIELD_PREFIX = "pick"  # a modal's selects: pick0, pick1, ... (their values joined in order are the text)
GAME = r"(?P<game>[a-z][a-z0-9_]*)"
_INDEX = re.compile(r"[0-9]{1,6}")  # a choice's index as the bot writes it in a custom_id or a select value
MODAL_ID = re.compile(r"play:" + GAME + r":(?P<id>\d+):(?P<step>\d+):text")


def level_name(level: str, lang: str) -> str:
    """An AI level as players read it: the catalogue's word for the usual levels, else the level itself."""
    key = f"core.ai.level.{level}"
    return t(key, lang) if key in catalog(DEFAULT) else level


def level_about(game: str, level: str, lang: str) -> str | None:
    """What an AI level of ``game`` does, in a line (a select option's description; None if unwritten)."""
    key = f"{game}.ai.about.{level}"
    return t(key, lang)[:100] if key in catalog(DEFAULT) else None  # Discord's limit for a description


class InputRouter(Protocol):
    """Where these components hand their interactions (the router cog, ``cogs.table.cog``, named "Table")."""

    async def lobby_action(self, interaction: Interaction, action: str, game_id: int) -> None: ...
    async def add_ai(self, interaction: Interaction, game_id: int, level: str) -> None: ...
    async def play_again(self, interaction: Interaction, kind: str, game_id: int) -> None: ...
    async def press(self, interaction: Interaction, kind: str, game_id: int, step: int, index: int) -> None: ...
    async def pick(self, interaction: Interaction, kind: str, game_id: int, step: int, index: int) -> None: ...
    async def open_private(self, interaction: Interaction, kind: str, game_id: int, step: int) -> None: ...
    async def submitted(self, interaction: Interaction, kind: str, game_id: int, step: int) -> None: ...


def _cog(interaction: Interaction) -> InputRouter:
    return interaction.client.get_cog("Table")  # type: ignore[attr-defined,no-any-return]


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"play:" + GAME + r":lobby:(?P<action>join|leave|start|cancel):(?P<id>\d+)"):
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary, "cancel": discord.ButtonStyle.danger}

    def __init__(self, game: str, action: str, game_id: int, lang: str = DEFAULT, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=t(f"core.button.{action}", lang), style=self.STYLES[action],
                                           custom_id=f"play:{game}:lobby:{action}:{game_id}", disabled=disabled))
        self.game, self.action, self.game_id = game, action, game_id

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> LobbyButton:
        return cls(match["game"], match["action"], int(match["id"]))

    async def callback(self, interaction: Interaction) -> None:
        await _cog(interaction).lobby_action(interaction, self.action, self.game_id)


class AddAISelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"play:" + GAME + r":lobby:ai:(?P<id>\d+)"):
    def __init__(self, game: str, game_id: int, levels: tuple[str, ...] = (), lang: str = DEFAULT) -> None:
        options = [discord.SelectOption(label=t("core.ai.option", lang, level=level_name(level, lang)), value=level,
                                        description=level_about(game, level, lang))
                   for level in levels] or [discord.SelectOption(label="-")]
        super().__init__(discord.ui.Select(custom_id=f"play:{game}:lobby:ai:{game_id}",
                                           placeholder=t("core.ai.placeholder", lang), options=options))
        self.game, self.game_id = game, game_id

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> AddAISelect:
        return cls(match["game"], int(match["id"]))

    async def callback(self, interaction: Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        await _cog(interaction).add_ai(interaction, self.game_id, str(values[0]) if values else "")


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"play:" + GAME + r":(?P<id>\d+):(?P<step>\d+):(?P<index>\d+|seal)"):
    """A choice of the turn message (or of a private view), or the sealed step's "Choose secretly"."""

    def __init__(self, game: str, game_id: int, step: int, index: int | str, label: str = "?",
                 emoji: str | None = None, primary: bool = True) -> None:
        style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label[:80], emoji=emoji, style=style,
                                           custom_id=f"play:{game}:{game_id}:{step}:{index}"))
        self.game, self.game_id, self.step, self.index = game, game_id, step, index

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ChoiceButton:
        index = match["index"]
        return cls(match["game"], int(match["id"]), int(match["step"]), int(index) if index.isdigit() else index)

    async def callback(self, interaction: Interaction) -> None:
        if self.index == "seal":
            await _cog(interaction).open_private(interaction, self.game, self.game_id, self.step)
        else:
            # \d (the template) also matches other scripts' digits: only the ASCII index the bot wrote is a
            # choice; anything else is refused as never offered (-1)
            raw = str((interaction.data or {}).get("custom_id", "")).rsplit(":", 1)[-1]
            index = int(raw) if _INDEX.fullmatch(raw) else -1
            await _cog(interaction).press(interaction, self.game, self.game_id, self.step, index)


class PickSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"play:" + GAME + r":(?P<id>\d+):(?P<step>\d+):pick"):
    """A private select of legal actions (values: indices into the step's legal list)."""

    def __init__(self, game: str, game_id: int, step: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str = "") -> None:
        super().__init__(discord.ui.Select(custom_id=f"play:{game}:{game_id}:{step}:pick", placeholder=placeholder
                                           or None, options=options or [discord.SelectOption(label="-")]))
        self.game, self.game_id, self.step = game, game_id, step

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> PickSelect:
        return cls(match["game"], int(match["id"]), int(match["step"]))

    async def callback(self, interaction: Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        # only the ASCII index the bot wrote ("²" passes isdigit() and fails int()): -1 is refused as not offered
        index = int(values[0]) if values and _INDEX.fullmatch(str(values[0])) else -1
        await _cog(interaction).pick(interaction, self.game, self.game_id, self.step, index)


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"play:" + GAME + r":(?P<id>\d+):(?P<step>\d+):choose"):
    """Choices of the turn message offered as a select (``Choice.select``): a pick is the press of that choice."""

    def __init__(self, game: str, game_id: int, step: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str = "") -> None:
        super().__init__(discord.ui.Select(custom_id=f"play:{game}:{game_id}:{step}:choose",
                                           placeholder=placeholder[:150] or None,
                                           options=options or [discord.SelectOption(label="-")]))
        self.game, self.game_id, self.step = game, game_id, step

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ChoiceSelect:
        return cls(match["game"], int(match["id"]), int(match["step"]))

    async def callback(self, interaction: Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        index = int(values[0]) if values and _INDEX.fullmatch(str(values[0])) else -1  # never offered: refused
        await _cog(interaction).press(interaction, self.game, self.game_id, self.step, index)


class TextModal(discord.ui.Modal):
    """Only sent, never kept: a submission is handled from its custom_id, restart or not."""

    def __init__(self, game: str, game_id: int, step: int, inputs: Inputs, field_id: str | None = None,
                 custom_id: str | None = None) -> None:
        assert inputs.text is not None or inputs.selects
        super().__init__(title=(inputs.title or "…")[:45], custom_id=custom_id or f"play:{game}:{game_id}:{step}:text",
                         timeout=None)
        # Pick, don't type: each select lists only what may be picked (Discord: 5 components at most). With
        # selects the text field (if any) is optional, under them: typing stays for whoever prefers it.
        for i, pick in enumerate(inputs.selects[:4]):
            options = [discord.SelectOption(label=label[:100], value=value) for value, label in pick.options[:25]]
            self.add_item(discord.ui.Label(text=pick.label[:45], component=discord.ui.Select(
                custom_id=f"{SELECT_FIELD_PREFIX}{i}", placeholder=pick.placeholder[:150] or None,
                options=options or [discord.SelectOption(label="-")], min_values=1, max_values=1,
                required=inputs.text is None)))
        spec = inputs.text
        if spec is None:
            return
        field = discord.ui.TextInput(placeholder=spec.placeholder[:100] or None, min_length=spec.min_length,
                                     max_length=spec.max_length, required=not inputs.selects,
                                     custom_id=field_id or TEXT_FIELD_ID)
        # in a Label (discord.py 2.7 deprecates a text input's own label), like the selects above it
        self.add_item(discord.ui.Label(text=spec.label[:45], component=field))


class AgainButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"play:" + GAME + r":again:(?P<id>\d+)"):
    """A finished game's "Play again": a new lobby here with the same options and AI seats, its players invited."""

    def __init__(self, game: str, game_id: int, lang: str = DEFAULT) -> None:
        super().__init__(discord.ui.Button(label=t("core.button.again", lang), style=discord.ButtonStyle.success,
                                           emoji="🔁", custom_id=f"play:{game}:again:{game_id}"))
        self.game, self.game_id = game, game_id

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> AgainButton:
        return cls(match["game"], int(match["id"]))

    async def callback(self, interaction: Interaction) -> None:
        await _cog(interaction).play_again(interaction, self.game, self.game_id)


def again_view(game: str, game_id: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AgainButton(game, game_id, lang))
    return view


def lobby_view(game: str, game_id: int, levels: tuple[str, ...], lang: str, *, open_seats: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in LOBBY_ACTIONS:
        view.add_item(LobbyButton(game, action, game_id, lang, disabled=action == "join" and not open_seats))
    if open_seats and levels:
        view.add_item(AddAISelect(game, game_id, levels, lang))
    return view


def choices_view(game: str, game_id: int, step: int, choices: tuple[Choice, ...]) -> discord.ui.View:
    """The choices as buttons (a custom_id per choice index), but those with a ``select`` placeholder: they are
    the options of one select under the buttons (custom_id ``...:choose``, one a message; the first placeholder
    names it), whose values are the same indices. Discord's limits hold by construction: 25 options, 100
    characters a label or description, 5 rows (so 20 buttons beside a select)."""
    view = discord.ui.View(timeout=None)
    placeholder = next((c.select for c in choices if c.select), "")
    options = [discord.SelectOption(label=c.label[:100], value=str(i), emoji=c.emoji,
                                    description=c.description[:100] or None)
               for i, c in enumerate(choices) if c.select][:25]
    plain = [(i, c) for i, c in enumerate(choices) if not c.select][:20 if options else 25]
    for index, choice in plain:
        view.add_item(ChoiceButton(game, game_id, step, index, choice.label, choice.emoji, choice.primary))
    if options:
        view.add_item(ChoiceSelect(game, game_id, step, options, placeholder))
    return view


# A sealed step's turn message carries the same one button through every choice of the step (each choice's
# answer edits the message with it): the view is built once per step and reused. It holds only a DynamicItem
# without timeout, which discord.py's view store keeps by its pattern, never per view or message.
_SEALED_VIEWS: dict[tuple[str, int, int, str], discord.ui.View] = {}
_SEALED_VIEWS_KEPT = 1024


def sealed_view(game: str, game_id: int, step: int, label: str) -> discord.ui.View:
    key = (game, game_id, step, label)
    view = _SEALED_VIEWS.get(key)
    if view is None:
        if len(_SEALED_VIEWS) >= _SEALED_VIEWS_KEPT:
            _SEALED_VIEWS.clear()
        view = _SEALED_VIEWS[key] = discord.ui.View(timeout=None)
        view.add_item(ChoiceButton(game, game_id, step, "seal", label, "🤫"))
    return view


def pick_view(game: str, game_id: int, step: int, labels: list[tuple[int, str]], placeholder: str
              ) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    options = [discord.SelectOption(label=label[:100], value=str(index)) for index, label in labels[:25]]
    view.add_item(PickSelect(game, game_id, step, options, placeholder))
    return view


DYNAMIC_ITEMS = (LobbyButton, AddAISelect, ChoiceButton, PickSelect, ChoiceSelect, AgainButton)
