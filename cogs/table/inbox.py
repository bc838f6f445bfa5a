"""The inbox of every game: each input a player gives - a DM, a choice button, a private select, a modal -
comes in here, reaches ``service.act`` through :meth:`Inbox.act`, and comes back as one answer: the
acknowledgement of a stored choice (then the announcement, through the :class:`~cogs.table.poster.Poster`) or
a refusal in the player's language. The router only hands the inputs over.

A DM is its author's move in their one open game: a burst of DMs gets a few answers and then only the newest
one, each answer carries a nonce tied to the DM, and only a stored move is acknowledged."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.core.errors import NotRunning, NotYourTurn, SentBefore, TurnOver
from bot.core.game import Action, RuleError
from bot.core.service import GameService, Outcome
from bot.core.table import Table
from bot.core.throttle import ReplyThrottle
from bot.core.timers import Scheduler
from bot.i18n import DEFAULT, t
from cogs.seats import safe_name
from storage.base import GameStore

from . import lean
from .answering import InteractionAnswers
from .answers import edit, fit, reply, settled
from .components import SELECT_FIELD_PREFIX, TEXT_FIELD_ID, TextModal, choices_view, pick_view
from .dm_commands import DMCommands, dm_command
from .language import Languages
from .late import sent_before
from .layout import edit_fields as v2_edit
from .poster import Poster
from .presenter import Card, Presenter, Presenters
from .private_sheets import PrivateSheets
from .recovery import Recovery
from .refusals import USER_ERRORS, Refused, explain, word
from .table_state import TableState
from .turn_messages import happened, seat_infos

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
MODAL_CHECK_WITHIN = 1.5  # a modal cannot follow a deferral: past this, defer and say so


class NotAsked(Refused):
    """An action this step does not ask of this user: why, in the game's words (whose turn it is)."""


class Inbox:
    def __init__(self, client: discord.Client, store: GameStore, scheduler: Scheduler, service: GameService,
                 presenters: Presenters, languages: Languages, answers: InteractionAnswers, poster: Poster,
                 recovery: Recovery, state: TableState, sheets: PrivateSheets, throttle: ReplyThrottle,
                 kinds: frozenset[str]) -> None:
        self.client = client
        self.store = store
        self.scheduler = scheduler
        self.service = service
        self.presenters = presenters
        self.languages = languages
        self.answers = answers
        self.poster = poster
        self.recovery = recovery
        self.state = state
        self.sheets = sheets
        self.throttle = throttle
        self.kinds = kinds
        self.dm_commands = DMCommands(service, presenters, poster, state)
        self._flushing: dict[int, asyncio.Task[None]] = {}

    # The one way in -----------------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, lang: str, **move: Any) -> Outcome:
        """Every input's way to the service: the game caught up first if the restore has not reached it yet,
        then ``service.act`` (``move``: its action or text, the step it was offered in, a DM's sending time).
        The outcome comes back to be acknowledged (``acknowledge``); an action out of turn comes back as the
        game's own refusal (:class:`NotAsked`); any other refusal is the service's error, explained by the
        caller in the player's language."""
        await self.recovery.take_up(game_id)
        try:
            return await self.service.act(game_id, user_id, **move)
        except NotYourTurn:
            raise self._their_turn(await self.service.table(game_id), lang, user_id) from None

    # Buttons, selects and modals -----------------------------------------------------------------
    async def _current(self, game_id: int, step: int) -> Table:
        table = await self.service.table(game_id)
        if not table.running:
            raise NotRunning(table.record.status)
        if table.step != step:
            raise TurnOver(table.step)
        return table

    def _their_turn(self, table: Table, lang: str, user_id: int | None = None) -> NotAsked:
        """Why the current step does not take this user's action: the game's own reason, else whose turn."""
        presenter = self.presenters[table.record.kind]
        seated = table.record.seat_of(user_id) if user_id is not None else None
        if user_id is not None and seated is None:  # not at this table at all (never seated, or left)
            return NotAsked(t("core.error.not_in_game", lang))
        if user_id is not None and table.running:
            why = presenter.not_asked(table.game.view(table.state, None), seated.seat if seated else None, lang)
            if why:
                return NotAsked(why)
        prompt = table.prompt
        names = [safe_name(table.seat(s).name) for s in sorted(prompt.seats)] if prompt else []
        return NotAsked(t("core.error.their_turn", lang, name=", ".join(names)))

    async def press(self, interaction: Interaction, kind: str, game_id: int, step: int, index: int) -> None:
        """A choice button (on the turn message, or on a private view of a sealed step)."""
        presenter = self.presenters.by_key.get(kind)
        async with self.answers.answering(interaction, "update", presenter):
            lang = await self.answers.lang(interaction)
            table = await self._current(game_id, step)
            _, legal, inputs = self._inputs_for(table, interaction.user.id, lang)
            if not 0 <= index < len(inputs.choices):  # a forged custom_id: this step never offered it
                raise Refused(t("core.error.not_offered", lang))
            choice = inputs.choices[index]
            if not choice.actions:  # nothing this seat can pick (said privately: the buttons are public)
                raise Refused(choice.none or t("core.error.turn_over", lang))
            if len(choice.actions) > 1 or choice.pick:  # a group: the seat picks one of them privately
                labels = [(i, inputs.labels[i] if i < len(inputs.labels) else str(i)) for i in choice.actions]
                await reply(interaction, choice.prompt or choice.label, view=pick_view(
                    table.record.kind, game_id, step, labels, inputs.placeholder))
                return
            await self._act(interaction, table, step, legal[choice.actions[0]], lang,
                            on_turn_message=not table.prompt.sealed and not _is_ephemeral(interaction))

    async def pick(self, interaction: Interaction, kind: str, game_id: int, step: int, index: int) -> None:
        """A private select's pick (a group's actions, or a sealed step's options)."""
        presenter = self.presenters.by_key.get(kind)
        async with self.answers.answering(interaction, "update", presenter):
            lang = await self.answers.lang(interaction)
            table = await self._current(game_id, step)
            _, legal, _ = self._inputs_for(table, interaction.user.id, lang)
            if not 0 <= index < len(legal):  # a forged select value: never offered
                raise Refused(t("core.error.not_offered", lang))
            await self._act(interaction, table, step, legal[index], lang, on_turn_message=False)

    def _inputs_for(self, table: Table, user_id: int, lang: str) -> tuple[int, list[Action], Any]:
        prompt = table.prompt
        seated = table.record.seat_of(user_id)
        if prompt is None or seated is None or seated.seat not in prompt.seats:
            raise self._their_turn(table, lang, user_id)
        seat = seated.seat
        legal = list(table.game.legal(table.state, seat) or [])
        view = table.game.view(table.state, seat if prompt.sealed else None)
        return seat, legal, self.presenters[table.record.kind].inputs(view, prompt, seat, legal, lang)

    async def _act(self, interaction: Interaction, table: Table, step: int, action: Action, lang: str, *,
                   on_turn_message: bool) -> None:
        presenter = self.presenters[table.record.kind]
        sealed = bool(table.prompt and table.prompt.sealed)
        outcome = await self.act(table.id, interaction.user.id, lang, action=action, phase=step)
        if on_turn_message and self.poster.continues(outcome.table, step):
            # the same thread goes on: announce edits the message into the next step, as this press's answer
            used: list[bool] = []

            async def through(card: Card, view: discord.ui.View) -> None:
                await edit(interaction, **v2_edit(card, view))
                used.append(True)

            await self.poster.announce(outcome.table, outcome.reports, editor=through)
            if not used and outcome.reports and outcome.reports[0].step == step:
                # the next step waits for an AI (or a chance step): the message shows the move made until then
                lang_game = await self.languages.for_game(outcome.table.record)
                async with self.state.locks(table.id):  # not over the AI's move if it came meanwhile
                    up = self.state.turn_messages.get(table.id)
                    if up is not None and self.poster.continues(outcome.table, step):
                        since = [h for h in self.state.since_of(table.id, step) if h.step != step]
                        card = presenter.done(happened(outcome.table, outcome.reports[0]),
                                              seat_infos(outcome.table), since, lang_game)
                        await edit(interaction, **v2_edit(card))
            await settled(interaction)
            if not interaction.response.is_done():
                await interaction.response.defer()
            return
        if outcome.ack is not None and (sealed or not on_turn_message):
            ack = self._ack_text(outcome, lang)
            await edit(interaction, content=ack, view=None, embeds=[])
            if sealed and _is_ephemeral(interaction):  # a private sheet: the next step edits it (private_sheets)
                self.sheets.keep(table.id, interaction.user.id, interaction, lang, step, ack)
            if sealed and not outcome.reports:
                self.poster.choice_made(outcome.table)
        elif on_turn_message and outcome.reports and outcome.reports[0].step == step:
            lang_game = await self.languages.for_game(outcome.table.record)
            # the steps of this message's thread that followed at once (an AI declaring last, the reveal) are
            # told in it too, not at the top of the next round's message
            run = self.poster.thread_run(outcome.table, outcome.reports, step)
            since = [*self.state.since_of(table.id, step), *(happened(outcome.table, r) for r in run[:-1])]
            card = presenter.done(happened(outcome.table, run[-1]), seat_infos(outcome.table), since, lang_game)
            await edit(interaction, **v2_edit(card))
            await self.poster.announce(outcome.table, outcome.reports, shown=run[-1].step)
            return
        else:
            await edit(interaction, content=t("core.done", lang), view=None, embeds=[])
        if outcome.reports:
            await self.poster.announce(outcome.table, outcome.reports)

    def _ack_text(self, outcome: Outcome, lang: str) -> str:
        """The private acknowledgement, with the step's public view when the presenter wants it."""
        presenter = self.presenters[outcome.table.record.kind]
        ack = outcome.ack
        assert ack is not None
        table = outcome.table
        state = outcome.reports[0].before if outcome.reports else table.state
        complete = bool(outcome.reports) and outcome.reports[0].step == ack.step
        return str(presenter.acknowledge(table.game.view(state, None), ack.action, ack.changed, complete,
                                         self.poster.where(table.record), lang))  # its thread, if it has one

    async def open_private(self, interaction: Interaction, kind: str, game_id: int, step: int) -> None:
        """A sealed step's "Choose secretly": the seat's own options, privately (or a modal for free text)."""
        presenter = self.presenters.by_key.get(kind)
        async with self.answers.answering(interaction, None, presenter):
            lang = await self.answers.lang(interaction)
            loading = asyncio.ensure_future(self._current(game_id, step))
            loading.add_done_callback(lambda f: f.cancelled() or f.exception())
            done, _ = await asyncio.wait({loading}, timeout=MODAL_CHECK_WITHIN)
            by_step = presenter.modal_for_step(step, lang) if not done and presenter is not None else None
            if by_step is not None:
                # the database is slow: open the game's modal for that step now; the submission is checked
                modal = TextModal(kind, game_id, step, by_step, presenter.text_field_id if presenter else None)
                await interaction.response.send_modal(modal)
                modal.stop()
                return
            if not done:  # the database is slow: a modal can no longer follow, so answer privately
                await interaction.response.defer(ephemeral=True, thinking=True)
            table = await loading
            _, legal, inputs = self._inputs_for(table, interaction.user.id, lang)
            kind = table.record.kind
            if not legal or inputs.text is not None or inputs.selects:
                if interaction.response.is_done():
                    raise Refused(t("core.error.try_again", lang))
                modal = TextModal(kind, game_id, step, inputs, presenter.text_field_id if presenter else None)
                await interaction.response.send_modal(modal)
                modal.stop()
            elif inputs.choices:
                await reply(interaction, inputs.title or "…", view=choices_view(kind, game_id, step, inputs.choices))
            else:
                await reply(interaction, inputs.title or "…",
                            view=pick_view(kind, game_id, step, list(enumerate(inputs.labels)), inputs.placeholder))

    async def submitted(self, interaction: Interaction, kind: str, game_id: int, step: int) -> None:
        """A modal's text, for the step it was opened in (also The Number's modals posted before the upgrade)."""
        presenter = self.presenters.by_key.get(kind)
        field_id = (presenter.text_field_id if presenter is not None else None) or TEXT_FIELD_ID
        data = interaction.data or {}
        # a text field (also a modal opened before the selects), else the selects' picks joined in order
        text = _field_value(data, field_id) or _field_value(data, TEXT_FIELD_ID) or _picked(data) or ""
        # Opened from a public message's button (the turn message): a slow answer defers as an update of that
        # message, which the choice then updates for free (who has chosen); the acknowledgement follows
        # privately. Refusals stay private lines either way.
        on_message = lean.message_ref(interaction) is not None and not _is_ephemeral(interaction)
        async with self.answers.answering(interaction, "update" if on_message else "ephemeral", presenter):
            lang = await self.answers.lang(interaction)
            try:
                outcome = await self.act(game_id, interaction.user.id, lang, text=text, phase=step)
            except TurnOver:
                card = await self._turn_over_card(game_id, presenter, lang)
                if card is None:
                    raise
                table, shown = card
                await reply(interaction, shown.content or "", embeds=list(shown.embeds),
                            view=self.poster.input_view(table, table.prompt, lang) if table.prompt else None)
                return
            except RuleError as error:
                if presenter is None:
                    raise
                raise Refused(await self._refusal(game_id, interaction.user.id, error, presenter, lang)) from None
            except USER_ERRORS:
                raise
            except Exception:  # the database failed: nothing was stored, and the player is told so
                log.warning("could not save a choice in game %s", game_id, exc_info=True)
                raise Refused(t("core.error.not_saved", lang)) from None
            await self.acknowledge(outcome, lambda line: reply(interaction, line), lang,
                                    interaction if on_message else None, step)

    async def _turn_over_card(self, game_id: int, presenter: Presenter | None, lang: str
                              ) -> tuple[Table, Card] | None:
        """The game's answer to an input for a step that is over: the step open now (None: the shared line)."""
        if presenter is None:
            return None
        table = await self.service.table(game_id)
        if not table.running or table.prompt is None:
            return None
        card = presenter.turn_over(table.game.view(table.state, None), table.prompt, seat_infos(table),
                                   table.record.deadline, lang)
        return (table, card) if card is not None else None

    async def acknowledge(self, outcome: Outcome, answer: Any, lang: str, interaction: Interaction | None = None,
                           step: int | None = None) -> None:
        """The private answer to a stored choice, then the announcement. ``interaction``: the choice came
        through the turn message of ``step``, whose update (or close) answers it before the private line."""
        updated = False
        draft = not outcome.reports and outcome.table.prompt is not None and outcome.table.prompt.sealed
        # a changed draft changes nothing the turn message shows: only the private line answers it
        same = draft and outcome.ack is not None and outcome.ack.changed and interaction is not None
        # a burst of choices through the message: one refresh shows them all (Poster.gathered)
        ref = lean.message_ref(interaction) if interaction is not None else None
        gathered = (draft and not same and ref is not None and step is not None
                    and self.poster.gathered(outcome.table, step, ref[0]))
        if interaction is not None and step is not None and outcome.ack is not None and not same and not gathered:
            updated = await self.poster.update_in_response(interaction, outcome.table.id, step, outcome.reports,
                                                         lambda **fields: edit(interaction, **fields))
            if updated and draft:  # its webhook may refresh the message for a burst (Poster.gathered)
                self.poster.answered_through(outcome.table.id, step, interaction)
        if outcome.ack is not None:
            await answer(self._ack_text(outcome, lang))
            if draft and not updated and not same and not gathered:
                self.poster.choice_made(outcome.table, outside=interaction is None)
        else:
            await answer(t("core.done", lang))
        if outcome.reports:
            closed = step if updated and any(r.step == step for r in outcome.reports) else None
            await self.poster.announce(outcome.table, outcome.reports, shown=closed)

    # Direct messages ------------------------------------------------------------------------------
    async def take_dm(self, message: discord.Message) -> None:
        """A DM to the bot: a player's move or sealed choice, whatever the game (one open game per player)."""
        if message.guild is not None or message.author.bot or message.author.id == getattr(self.client.user, "id", 0):
            return
        with self.scheduler.foreground():  # a player waits for this answer: ahead of the overdue timers
            await self._take_dm(message)

    async def _take_dm(self, message: discord.Message) -> None:
        user_id, channel = message.author.id, message.channel

        async def answer(line: str) -> None:
            # The nonce ties the answer to this DM: a retried answer is never shown twice.
            await self._dm_reply(user_id, channel, line, nonce=f"d{message.id}")

        lang = DEFAULT
        try:
            # Only which game it is: the game itself comes from the service's cache.
            record = await self.store.open_game_of_user(user_id, details=False)
            lang = await self.languages.for_dm(user_id, record)
        except Exception:
            log.warning("could not look up the game of a DM's author", exc_info=True)
            await answer(t("core.error.not_saved", lang))
            return
        if record is None or record.kind not in self.kinds:
            starts = ", ".join(f"`/{kind} start`" for kind in self.service.by_key)
            await answer(t("core.dm.no_game", lang, start=starts))
            return
        presenter = self.presenters[record.kind]
        if record.status == "lobby":
            await answer(word(presenter, "core.dm.lobby", lang, channel=f"<#{record.channel_id}>"))
            return
        command = dm_command(message.content) if record.status == "running" else None
        if command is not None:  # help, rules, board, score, quit: answered in every game
            try:
                await self.dm_commands.run(*command, record, user_id, channel, f"d{message.id}", lang, answer)
            except USER_ERRORS as error:
                await answer(explain(error, lang, presenter))
            except Exception:
                log.warning("could not answer a DM command in game %s", record.id, exc_info=True)
                await answer(t("core.error.not_saved", lang))
            return
        # The game's refusal says what a move looks like; a DM with words in it (maybe a question, a command the
        # bot does not know) also gets every other thing it may send now.
        wordy = any(c.isalpha() for c in message.content)
        can_send = "\n" + t("core.dm.can_send", lang, how=presenter.dm_how(lang)) if wordy else ""
        try:
            # sent_at: a DM read after the step it was sent in ended is refused, never counted for the next one
            outcome = await self.act(record.id, user_id, lang, text=message.content,
                                     sent_at=message.created_at.timestamp())
        except SentBefore as late:
            await answer(sent_before(late, presenter, lang))
            return
        except NotAsked as refused:  # whose turn it is (or the game's own reason), without the list below
            await answer(str(refused))
            return
        except RuleError as error:
            await answer(await self._refusal(record.id, user_id, error, presenter, lang) + can_send)
            return
        except USER_ERRORS as error:
            await answer(explain(error, lang, presenter) + can_send)
            return
        except Exception:
            log.warning("could not take a DM move in game %s", record.id, exc_info=True)
            await answer(t("core.error.not_saved", lang))
            return
        await self.acknowledge(outcome, answer, lang)

    async def _refusal(self, game_id: int, user_id: int, error: RuleError, presenter: Presenter,
                       lang: str) -> str:
        """A refused action, with the seat's own view when the presenter can say what it may do instead."""
        table = await self.service.table(game_id)
        seated = table.record.seat_of(user_id)
        view = table.game.view(table.state, seated.seat) if seated is not None and table.running else None
        return str(presenter.refusal_for(error, view, lang))

    async def _dm_reply(self, user_id: int, channel: discord.abc.Messageable, line: str, nonce: str) -> None:
        """Answer a DM, but a burst of DMs gets a few answers and then only the newest one."""
        line = fit(line)
        if self.throttle.allow(user_id):
            try:
                await self.poster.send(channel, nonce=nonce, content=line)
            except discord.HTTPException as exc:
                log.info("could not answer a DM: %s", exc)
            return
        wait = self.throttle.hold(user_id, line)
        if user_id not in self._flushing:
            self._flushing[user_id] = asyncio.create_task(self._flush_dm_reply(user_id, channel, wait))

    def holding_answers(self) -> bool:
        """Whether a DM's answer held back by the throttle is still to be sent."""
        return bool(self._flushing)

    async def _flush_dm_reply(self, user_id: int, channel: discord.abc.Messageable, wait: float) -> None:
        try:
            await asyncio.sleep(wait)
            held = self.throttle.release(user_id)
            if held is not None:
                await self.poster.send(channel, nonce=None, content=held)
        except discord.HTTPException as exc:
            log.info("could not answer a DM: %s", exc)
        finally:
            self._flushing.pop(user_id, None)


def _is_ephemeral(interaction: Interaction) -> bool:
    ref = lean.message_ref(interaction)  # (the message is not built: its flags are enough)
    return ref is not None and bool(ref[1] & lean.EPHEMERAL)


def _picked(data: Any) -> str | None:
    """The values of a modal's selects (``pick0``, ``pick1``...) joined in their order; None when it has none."""
    found: dict[int, str] = {}
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            custom_id = str(node.get("custom_id", ""))
            suffix = custom_id.removeprefix(SELECT_FIELD_PREFIX)
            if custom_id.startswith(SELECT_FIELD_PREFIX) and suffix.isascii() and suffix.isdigit():
                values = node.get("values") or []
                found[int(suffix)] = str(values[0]) if values else ""
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return "".join(found[i] for i in sorted(found)) if found else None


def _field_value(data: Any, custom_id: str) -> str | None:
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("custom_id") == custom_id and "value" in node:
                return str(node["value"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None
