"""What every game's cog package does alike, from the game's declaration: its ``/<key>`` group with ``start`` (the
options of ``Game.options``, the AI levels of ``Game.ai_levels``, the bounds of the game) and ``rules``, and its
setup (the presenter registered, the cog added, the stats commands added to its group).

A game's cog adds a command only for what is its own (Binomial's ``/binomial sheet``). The texts come from the
game's catalogue area by convention (see docs/adding-a-game.md): ``<key>.cmd.<key>`` and ``.desc`` for the
group, ``<key>.cmd.start.desc``, ``<key>.cmd.rules.desc``, ``<key>.cmd.opt.ai_players.desc``, and for each
option ``<key>.cmd.opt.<name>`` and ``.desc`` (``turn_seconds`` may use the shared ones).
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.deadlines import TABLE_OPTIONS
from bot.core.game import Game, Option
from bot.i18n import DEFAULT, catalog

from .language import Languages, cmd
from .presenter import Presenter, register
from .stats import StatsPresenter, add_stats_commands

if TYPE_CHECKING:
    from bot.client import NumberBot

__all__ = ["add_game_cog", "cmd", "game_group", "send_rules", "words"]
Interaction = discord.Interaction[Any]
SHARED_OPTIONS = ("turn_seconds", "ai_players", "ai_level")  # named and described alike in every game


def words(key: str, fallback: str | None = None) -> app_commands.locale_str:
    """A command text from the catalogue: ``key`` (or ``fallback`` when the game has no text of its own)."""
    english = catalog(DEFAULT)
    if key not in english and fallback is not None:
        key = fallback
    if key not in english:
        raise KeyError(f"no command text {key!r} in the catalogue: add it to the game's locales (see "
                       "docs/adding-a-game.md)")
    return cmd(english[key], key)


def game_group(game: Game[Any, Any, Any], **group: Any) -> app_commands.Group:
    """The ``/<key>`` group of ``game`` with its ``start`` and ``rules`` (``group``: more Group keywords, such as
    ``guild_only``). Put it in the game's cog class body; the cog's own commands follow with ``@group.command``."""
    key = game.key
    made = app_commands.Group(name=words(f"{key}.cmd.{key}"), description=words(f"{key}.cmd.{key}.desc"), **group)
    made.add_command(_start(game, made))
    made.add_command(_rules(game, made))
    return made


def _option_parameter(option: Option) -> tuple[Any, Any]:
    """The annotation of ``option``'s parameter (its type and bounds follow the declaration) and its default."""
    if isinstance(option.default, bool):
        return bool | None, None
    if isinstance(option.default, int):
        if option.min is not None or option.max is not None:
            return app_commands.Range[int, option.min, option.max] | None, None
        return int | None, None
    if option.choices:
        return str | None, None  # the choices are set with app_commands.choices below
    return str | None, None


def _start(game: Game[Any, Any, Any], parent: app_commands.Group) -> app_commands.Command[Any, ..., None]:
    """``/<key> start``: turn_seconds first, then ai_players and ai_level, then the game's other options, then
    the table's own (``pace``, ``step_hours``: every game has them, from :mod:`bot.core.deadlines`)."""
    key = game.key
    timer = [o for o in game.options if o.name == "turn_seconds"]
    others = [o for o in game.options if o.name != "turn_seconds"] + list(TABLE_OPTIONS)
    levels = tuple(game.ai_levels)
    kind = inspect.Parameter.KEYWORD_ONLY
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
                  inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Interaction)]
    parameters += [inspect.Parameter(o.name, kind, annotation=_option_parameter(o)[0], default=None) for o in timer]
    parameters.append(inspect.Parameter("ai_players", kind, default=0,
                                        annotation=app_commands.Range[int, 0, game.seats.stop - 2]))
    parameters.append(inspect.Parameter("ai_level", kind, annotation=str, default=levels[len(levels) // 2]))
    parameters += [inspect.Parameter(o.name, kind, annotation=_option_parameter(o)[0], default=None) for o in others]

    async def start(self: commands.Cog, interaction: Interaction, **given: Any) -> None:
        bot: Any = interaction.client
        ai_players, ai_level = given.pop("ai_players", 0), given.pop("ai_level", levels[len(levels) // 2])
        options = {name: value for name, value in given.items() if value is not None}
        for option in game.options:  # the bot's own setting (TURN_SECONDS) when the game defers to it
            if option.server_default and option.name not in options:
                options[option.name] = getattr(bot.settings, option.name, option.default)
        await bot.get_cog("Table").open_table(interaction, key, options, ai_players, ai_level)

    start.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    start.__qualname__ = "GameCog.start"  # a method: discord.py passes the cog first (the group is the cog's)
    start.__discord_app_commands_param_rename__ = {  # type: ignore[attr-defined]
        name: words(f"{key}.cmd.opt.{name}", f"commands.opt.{name}")
        for name in (*(o.name for o in (*game.options, *TABLE_OPTIONS)), "ai_players", "ai_level")}
    start.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        name: words(f"{key}.cmd.opt.{name}.desc", f"commands.opt.{name}.desc")
        for name in (*(o.name for o in (*game.options, *TABLE_OPTIONS)), "ai_players", "ai_level")}
    choices: dict[str, list[app_commands.Choice[str]]] = {
        "ai_level": [app_commands.Choice(name=level, value=level) for level in levels]}
    choices |= {o.name: [app_commands.Choice(name=c, value=c) for c in o.choices] for o in others if o.choices}
    start.__discord_app_commands_param_choices__ = choices  # type: ignore[attr-defined]
    command = app_commands.Command(name=words("commands.start"), description=words(f"{key}.cmd.start.desc"),
                                   callback=start, parent=parent)
    return command


def _rules(game: Game[Any, Any, Any], parent: app_commands.Group) -> app_commands.Command[Any, ..., None]:
    async def rules(self: commands.Cog, interaction: Interaction) -> None:
        bot: Any = interaction.client
        await send_rules(interaction, bot.get_cog("Table").languages, bot.presenters[game.key])

    rules.__qualname__ = "GameCog.rules"
    return app_commands.Command(name=words("commands.rules"), description=words(f"{game.key}.cmd.rules.desc"),
                                callback=rules, parent=parent)


async def send_rules(interaction: Interaction, languages: Languages, presenter: Presenter) -> None:
    """The game's rules card, privately, in the user's language."""
    lang = await languages.for_user(interaction)
    await interaction.response.send_message(embeds=list(presenter.rules(lang).embeds), ephemeral=True)


async def add_game_cog(bot: NumberBot, cog: commands.Cog, kind: str, presenter: Presenter,
                       stats: StatsPresenter) -> None:
    """A game's ``setup``: its presenter registered before ``cogs.table`` loads, then its cog (whose ``/<kind>``
    group is :func:`game_group`'s), then the stats commands in that group."""
    register(bot, presenter)
    await bot.add_cog(cog)
    group = bot.tree.get_command(kind)
    if not isinstance(group, app_commands.Group):
        raise RuntimeError(f"{type(cog).__name__} did not register the /{kind} group (game_group of the game)")
    await add_stats_commands(bot, group, kind, stats)
