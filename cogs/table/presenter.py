"""What a game tells the shared Discord front end: its presenter, a subclass of :class:`Presenter`, registered
by its cog package.

A presenter is plain functions over what the game makes public: views (``game.view(state, None)`` for the
channel, ``game.view(state, seat)`` only for that seat's own private answers), events (what a step made
public), prompts and the game's legal actions. It never sees the engine state or the seed, so nothing it
draws for the channel can carry a secret. Every function takes the language (``"en"``, ``"fr"``) last.

The front end (``cogs/table``) owns everything else: posting with nonces and retries, which message is
edited or posted, custom_ids, timers, restarts, deferrals. A game's cog package calls :func:`register`
in its ``setup`` with its key (``Game.key``); ``cogs.table`` is loaded after the game packages and serves
every game of ``bot.service`` that has a presenter (a test checks that each has one).

A game overrides only what differs. Seven methods have no default (``lobby``, ``status``, ``done``, ``final``,
``inputs``, ``score``, ``board``); the rest have one built on the game's catalogue area (``<key>.title``,
``<key>.rules.title``/``.text``, ``<key>.reminder``, ``<key>.error.<RuleError.key>``) and on shared helpers
(:meth:`Presenter.who`, :meth:`Presenter.since_text` over :meth:`Presenter.event_line`, :meth:`Presenter.embed`).

Inputs come from the prompt (see :class:`Inputs`):

* an open prompt: ``Inputs.choices`` become buttons on the turn message, for the current seat only; a
  choice standing for several actions opens a private select of them (Binomial's "Fight" -> its numbers);
* a sealed prompt with a short legal list: one "Choose secretly" button (``Inputs.private_label``) opens
  a private (ephemeral) view of that seat's own choices;
* a sealed prompt whose legal list is None: a modal with ``Inputs.selects`` (picks whose values, joined in order,
  are the text: The Number's three digit selects), else ``Inputs.text`` (or a DM).

Capabilities are declared (class attributes), never probed; each turns on hooks the front end then calls:

* ``threads = True`` -> ``thread(view, prompt) -> str | None``: steps whose thread keys are equal (and not None)
  share ONE turn message, edited in place from step to step instead of a new post per step (Binomial's 16 rolls
  of the numerology; the declarations of one round). When the thread changes, the message is closed with
  ``done`` as usual and the next one is posted.
* ``reports = True`` -> ``report(happened, seats, lang) -> Card``: each committed step is told in a message of
  its own, posted after it (``happened.game_id`` names the game); the turn message of the step is then left as
  it was (no ``done`` edit), the next step gets a new turn message, and the last step's report tells the end
  (no ``final`` message). The report of the step just ended is posted at the top of the next turn message (one
  message) when both fit in one. With it: ``reported(message, happened) -> bool`` recognises a report already
  posted (a restart looks for it among the channel's recent messages), ``async report_pictures(happened,
  record, lang)`` attaches pictures (dropped where the bot may not attach files).
* ``closes_turn = True`` (with ``reports``) -> ``closed(happened, seats, lang) -> Card``: what the turn message of
  the ended step becomes (its buttons removed; ``seats[i].awaited``: missed the step); without it the message
  only loses its buttons.
* ``reminds_in_channel = True`` -> ``reminder_line(view, awaited, seconds, lang) -> str``: the reminder is this
  line on the turn message (one edit, nobody pinged; ``awaited``: the human seats still awaited) instead of a
  ``reminder`` DM to each awaited seat. It is the step's one spare call: a choice made outside the turn message
  (a DM) gives it to the close of the message, so the step costs at most its post and one edit besides the DM
  answers.

Hooks whose default keeps the shared behaviour (override to change it):

* ``ack_for(view, action, changed, lang)``: the private acknowledgement with the table's view of the step acted
  in (default ``ack``); ``acknowledge(view, action, changed, complete, channel_id, lang)``: the same knowing
  whether the step is now complete and the channel (default ``ack_for``).
* ``timed_out(before, after, seat, lang) -> str | None``: a DM to a seat the deadline acted for, from that seat's
  own views before and after the step (where its digit went); never shown to anyone else (default: none).
* ``status_at(view, prompt, seats, since, deadline, lang)``: ``status`` with the step's deadline;
  ``score_at(view, seats, status, lang)``: ``score`` with the game's status ("running", "finished", ...).
* ``lobby_embed(record, lang, headline, passed) -> Embed | None``: the game draws its own lobby (default None:
  the shared one); ``join_dm(channel_id, lang) -> str | None``: a DM to a player who takes a seat.
* ``refusal_for(error, view, lang)``: ``refusal`` with the refused seat's own view (what it may do instead).
* ``not_asked(view, seat, lang) -> str | None``: why the current step does not ask ``seat`` (default: whose turn).
* ``turn_over(view, prompt, seats, deadline, lang) -> Card | None``: the answer to text sent for a step that is
  over (the step open now); ``modal_for_step(step, lang) -> Inputs | None``: the modal of a step when the table
  is slow to load (the submission is checked anyway).
* ``step_name(view, lang) -> str | None``: the step the table's ``view`` is at, as a refusal names it ("round 2
  (Contains 9)"), for a DM sent during a step that ended before it was read (default None: a shared line).
* ``nonces``, ``footer_on_turn``, ``text_field_id``, ``wording``: the ids, nonce prefixes and shared sentences a
  game kept from before the shared front end (The Number: see cogs/thenumber/legacy.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import discord

from bot.core.game import Action, Prompt, RuleError, Seat
from bot.i18n import catalog, t
from cogs.seats import AI_MARK, seat_style
from storage.base import GameRecord

MAX_CHOICES = 25  # buttons on one message (5 rows of 5), options in one select
RULES_SECTION = 900  # characters of rules in one embed (issue 36: a long text is split into sections)


@dataclass(frozen=True, slots=True)
class Picture:
    """A file to attach (kept as bytes: a retried post needs a fresh ``discord.File`` each time)."""

    filename: str
    data: bytes
    description: str = ""  # alt text, for screen readers

    def file(self) -> discord.File:
        import io

        return discord.File(io.BytesIO(self.data), filename=self.filename, description=self.description or None)


@dataclass(frozen=True, slots=True)
class Card:
    """One message's visible parts."""

    content: str | None = None
    embeds: tuple[discord.Embed, ...] = ()
    pictures: tuple[Picture, ...] = ()

    def fields(self) -> dict[str, Any]:
        """Keyword arguments for ``send``/``edit``: fresh files every time."""
        return {"content": self.content, "embeds": list(self.embeds), "files": [p.file() for p in self.pictures]}


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the presenter may name it: display name already escaped (``render.safe_name``)."""

    seat: Seat
    name: str
    is_ai: bool = False
    gone: bool = False  # left or kicked
    away: bool = False  # timed out on its last two turns
    awaited: bool = False  # the current step still waits for this seat (a sealed step: not chosen yet)
    state: str = "seated"  # "seated", "left" or "kicked"


@dataclass(frozen=True, slots=True)
class Choice:
    """One button. ``actions`` are indices into ``game.legal(state, seat)``: one acts at once; several open a
    private select of them (labelled by ``Inputs.labels``)."""

    label: str
    actions: tuple[int, ...]
    emoji: str | None = None
    primary: bool = True
    pick: bool = False  # open the private select even when it stands for a single action
    none: str = ""  # said privately when it stands for no action for the seat pressing it (nothing to pick)
    prompt: str = ""  # the text above its private select (default: its label)
    # Non-empty: shown as an option of the turn message's select with this placeholder (the choices sharing it
    # make one select) instead of a button; picking it is the same as pressing it (the n-th choice).
    select: str = ""
    description: str = ""  # the select option's second line (what the choice does)


@dataclass(frozen=True, slots=True)
class TextInput:
    label: str
    placeholder: str = ""
    min_length: int = 1
    max_length: int = 20


@dataclass(frozen=True, slots=True)
class SelectInput:
    """A select in a modal (a Label holding a string select): ``options`` are (value, label) pairs."""

    label: str
    options: tuple[tuple[str, str], ...]
    placeholder: str = ""


@dataclass(frozen=True, slots=True)
class Inputs:
    """How the current seat gives its action, built from the prompt and the legal list."""

    choices: tuple[Choice, ...] = ()  # open prompt: the turn message's buttons; sealed: the private buttons
    labels: tuple[str, ...] = ()  # one per legal action, for a private select
    private_label: str = ""  # sealed: the public "Choose secretly" button
    placeholder: str = ""  # a select's placeholder
    text: TextInput | None = None  # sealed with legal None: the modal's field
    selects: tuple[SelectInput, ...] = ()  # sealed with legal None: the modal's selects instead (at most 5);
    # their values, joined in order, are the text submitted (the engine checks it as if typed)
    title: str = ""  # the modal's or the private view's title


@dataclass(frozen=True, slots=True)
class Happened:
    """A committed step, for the presenter: the event, the public views before and after it."""

    step: int
    event: Any
    before: Any
    after: Any
    reason: str  # "moved", "all-chosen", "chance", "ai", "deadline", "absent", "only" (one legal move), "away"
    timed_out: frozenset[Seat] = frozenset()
    finished: bool = False
    game_id: int = 0


def who(seats: Sequence[SeatInfo], seat: Seat) -> str:
    """A seat as the channel names it: its symbol and its (escaped) name, an AI's marked once ("🔷 Ada 🤖"), or its
    number when unknown."""
    found = next((s for s in seats if s.seat == seat), None)
    return f"{seat_style(seat).symbol} {found.name + (AI_MARK if found.is_ai else '') if found else seat + 1}"


class Presenter:
    """Everything a game says on Discord. ``view`` is always the table's view unless a seat is named.

    Subclass it and override what differs; the methods without a default raise NotImplementedError (a test
    checks that every registered presenter overrides them)."""

    key: str  # the game's key
    colour: discord.Colour = discord.Colour.blurple()

    # Declared capabilities (see the module): each turns on the hooks of the same paragraph.
    threads: bool = False
    reports: bool = False
    closes_turn: bool = False
    reminds_in_channel: bool = False
    # Kept from before the shared front end (The Number's legacy.py); new games leave them.
    nonces: Mapping[str, str] = MappingProxyType({})  # {"turn": ..., "report": ..., "final": ...} prefixes
    footer_on_turn: bool = True  # False: the turn message gets no "game N" footer
    text_field_id: str | None = None  # the modal's text input id (None: the shared one)
    # The custom_id of a modal of the game's messages posted before the shared front end (groups ``game``, ``step``):
    # submitted, it counts as the shared modal of that step (answered by the table's one interaction listener).
    legacy_modal: re.Pattern[str] | None = None
    wording: Mapping[str, str] = MappingProxyType({})  # shared sentence key -> the game's own key
    since_gap: str = "\n"  # between two lines of ``since_text``

    REQUIRED = ("lobby", "status", "done", "final", "inputs", "score", "board")

    # Required -------------------------------------------------------------------------------------------
    def lobby(self, options: Mapping[str, Any], lang: str) -> str:
        """The lobby's description: what the game is and the table's options."""
        raise NotImplementedError

    def status(self, view: Any, prompt: Prompt, seats: Sequence[SeatInfo], since: Sequence[Happened],
               lang: str) -> Card:
        """The turn message of a step awaiting humans; ``since``: every step committed since the previous turn
        message was posted (that message's own step first, then AI moves, chance draws, passes), to tell."""
        raise NotImplementedError

    def done(self, happened: Happened, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        """What the turn message becomes once its step is over (no buttons): the move made, after ``since``
        (what the turn message told before it, which the edit must keep)."""
        raise NotImplementedError

    def final(self, view: Any, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        """The end of the game: points and winners, with what happened since the last turn message."""
        raise NotImplementedError

    def inputs(self, view: Any, prompt: Prompt, seat: Seat, legal: Sequence[Action] | None, lang: str) -> Inputs:
        """The input widgets for ``seat`` (``view`` is that seat's own view when the prompt is sealed)."""
        raise NotImplementedError

    def sealed_label(self, view: Any, prompt: Prompt, seat: Seat, lang: str) -> str:
        """A sealed step's public "Choose secretly" label (``view``: the table's public view): the one part of
        ``inputs`` the turn message shows; a presenter whose label is cheaper to tell than its form says so."""
        return self.inputs(view, prompt, seat, None, lang).private_label

    def score(self, view: Any, seats: Sequence[SeatInfo], lang: str) -> Card:
        raise NotImplementedError

    def board(self, view: Any, seat: Seat, seats: Sequence[SeatInfo], lang: str) -> Card:
        """One seat's board (``view`` is that seat's own view only when the asker is that seat)."""
        raise NotImplementedError

    # Shared helpers ---------------------------------------------------------------------------------------
    who = staticmethod(who)

    def embed(self, title: str, text: str) -> discord.Embed:
        """An embed in the game's colour, its text cut to what Discord takes."""
        return discord.Embed(title=title.strip(), description=text[:4000], colour=self.colour)

    def event_line(self, happened: Happened, seats: Sequence[SeatInfo], lang: str) -> str | None:
        """One step told in the channel (None: nothing worth a line)."""
        return None

    def since_text(self, since: Sequence[Happened], seats: Sequence[SeatInfo], lang: str) -> str:
        """The steps of ``since`` told one line each (``event_line``), ``since_gap`` apart."""
        return self.since_gap.join(line for h in since if (line := self.event_line(h, seats, lang)) is not None)

    # Defaults from the game's catalogue area --------------------------------------------------------------
    def title(self, lang: str) -> str:
        """The game's name as players read it (``<key>.title``)."""
        return t(f"{self.key}.title", lang)

    def rules(self, lang: str) -> Card:
        """``/<key> rules``: ``<key>.rules.title`` and ``<key>.rules.text``, in sections of at most
        ``RULES_SECTION`` characters cut at line breaks, one embed each (short enough to read)."""
        title, sections = t(f"{self.key}.rules.title", lang), [""]
        for line in t(f"{self.key}.rules.text", lang).split("\n"):
            if sections[-1] and len(sections[-1]) + len(line) >= RULES_SECTION:
                sections.append("")
            sections[-1] += ("\n" if sections[-1] else "") + line
        count = len(sections)
        return Card(embeds=tuple(self.embed(f"{title} ({i + 1}/{count})" if count > 1 else title, text)
                                 for i, text in enumerate(sections)))

    def ack(self, action: Action, changed: bool, lang: str) -> str:
        """A private acknowledgement of a sealed draft (never shown to anyone else)."""
        return t("core.done", lang)

    def refusal(self, error: RuleError, lang: str) -> str:
        """A refused action in the player's language: ``<key>.error.<error.key>`` filled with the error's values,
        else the error's own (English) sentence."""
        key = f"{self.key}.error.{error.key}"
        if key not in catalog(lang) and key not in catalog("en"):
            return str(error)
        return t(key, lang, **error.values)

    def dm_how(self, lang: str) -> str:
        """What a move sent by DM looks like (``<key>.dm.how``), for ``help`` and after a refused DM."""
        return t(f"{self.key}.dm.how", lang)

    def reminder(self, view: Any, seat: Seat, seconds: int, channel_id: int, lang: str) -> str:
        """A DM before the deadline to a seat still awaited (``<key>.reminder``: {seconds}, {channel})."""
        return t(f"{self.key}.reminder", lang, seconds=seconds, channel=f"<#{channel_id}>")

    # Hooks whose default is the shared behaviour ----------------------------------------------------------
    def ack_for(self, view: Any, action: Action, changed: bool, lang: str) -> str:
        return self.ack(action, changed, lang)

    def acknowledge(self, view: Any, action: Action, changed: bool, complete: bool, channel_id: int,
                    lang: str) -> str:
        return self.ack_for(view, action, changed, lang)

    def timed_out(self, before: Any, after: Any, seat: Seat, lang: str) -> str | None:
        return None

    def status_at(self, view: Any, prompt: Prompt, seats: Sequence[SeatInfo], since: Sequence[Happened],
                  deadline: float | None, lang: str) -> Card:
        return self.status(view, prompt, seats, since, lang)

    def score_at(self, view: Any, seats: Sequence[SeatInfo], status: str, lang: str) -> Card:
        return self.score(view, seats, lang)

    def lobby_embed(self, record: GameRecord, lang: str, headline: str | None,
                    passed: tuple[str, str] | None) -> discord.Embed | None:
        return None

    def join_dm(self, channel_id: int, lang: str) -> str | None:
        return None

    def refusal_for(self, error: RuleError, view: Any, lang: str) -> str:
        return self.refusal(error, lang)

    def not_asked(self, view: Any, seat: Seat | None, lang: str) -> str | None:
        return None

    def turn_over(self, view: Any, prompt: Prompt, seats: Sequence[SeatInfo], deadline: float | None,
                  lang: str) -> Card | None:
        return None

    def modal_for_step(self, step: int, lang: str) -> Inputs | None:
        return None

    def step_name(self, view: Any, lang: str) -> str | None:
        return None

    # Hooks of a declared capability (called only when it is declared) ---------------------------------------
    def thread(self, view: Any, prompt: Prompt) -> str | None:  # threads
        return None

    def report(self, happened: Happened, seats: Sequence[SeatInfo], lang: str) -> Card:  # reports
        raise NotImplementedError(f"{self.key} declares reports but has no report()")

    def reported(self, message: discord.Message, happened: Happened) -> bool:  # reports
        return False

    async def report_pictures(self, happened: Happened, record: GameRecord, lang: str
                              ) -> tuple[Picture, ...]:  # reports
        return ()

    def closed(self, happened: Happened, seats: Sequence[SeatInfo], lang: str) -> Card:  # closes_turn
        raise NotImplementedError(f"{self.key} declares closes_turn but has no closed()")

    def reminder_line(self, view: Any, awaited: Sequence[SeatInfo], seconds: int, lang: str
                      ) -> str:  # reminds_in_channel
        raise NotImplementedError(f"{self.key} declares reminds_in_channel but has no reminder_line()")


@dataclass
class Presenters:
    """The presenters of one bot, by game key (``bot.presenters``)."""

    by_key: dict[str, Presenter] = field(default_factory=dict)

    def register(self, presenter: Presenter) -> None:
        self.by_key[presenter.key] = presenter

    def __getitem__(self, key: str) -> Presenter:
        return self.by_key[key]

    def __contains__(self, key: object) -> bool:
        return key in self.by_key


def register(bot: Any, presenter: Presenter) -> None:
    """Called by a game's cog package in its ``setup``, before ``cogs.table`` is loaded."""
    presenters = getattr(bot, "presenters", None)
    if presenters is None:
        presenters = bot.presenters = Presenters()
    presenters.register(presenter)
