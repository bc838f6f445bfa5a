"""What a game must tell the shared Discord front end: a presenter per game, registered by its cog package.

A presenter is plain functions over what the game makes public: views (``game.view(state, None)`` for the
channel, ``game.view(state, seat)`` only for that seat's own private answers), events (what a step made
public), prompts and the game's legal actions. It never sees the engine state or the seed, so nothing it
draws for the channel can carry a secret. Every function takes the language (``"en"``, ``"fr"``) last.

The front end (``cogs/table``) owns everything else: posting with nonces and retries, which message is
edited or posted, custom_ids, timers, restarts, deferrals. A game's cog package calls :func:`register`
in its ``setup`` with its key (``Game.key``); ``cogs.table`` is loaded after the game packages and serves
every game of ``bot.service`` that has a presenter (a test checks that each has one).

Inputs come from the prompt (see :class:`Inputs`):

* an open prompt: ``Inputs.choices`` become buttons on the turn message, for the current seat only; a
  choice standing for several actions opens a private select of them (Binomial's "Fight" -> its numbers);
* a sealed prompt with a short legal list: one "Choose secretly" button (``Inputs.private_label``) opens
  a private (ephemeral) view of that seat's own choices;
* a sealed prompt whose legal list is None: a modal with ``Inputs.text`` (or a DM).

Optional presenter hooks (a presenter without them behaves as before):

* ``thread(view, prompt) -> str | None``: steps whose thread keys are equal (and not None) share ONE turn
  message, edited in place from step to step instead of a new post per step (Binomial's 16 rolls of the
  numerology; the declarations of one round). When the thread changes, the message is closed with ``done``
  as usual and the next one is posted.
* ``ack_for(view, action, changed, lang) -> str``: the private acknowledgement with the table's view of the
  step acted in (``ack`` cannot say which digit was placed); used instead of ``ack`` when present.
* ``timed_out(before, after, seat, lang) -> str | None``: a DM to a seat the deadline acted for, from that
  seat's own views before and after the step (where its digit went); never shown to anyone else.
* ``report(happened, seats, lang) -> Card``: each committed step is told in a message of its own, posted
  after it (``happened.game_id`` names the game); the turn message of the step is then left as it was
  (no ``done`` edit), the next step gets a new turn message, and the last step's report tells the end (no
  ``final`` message). The report of the step just ended is posted at the top of the next turn message
  (one message) when both fit in one. With it: ``reported(message, happened) -> bool`` recognises a report
  already posted (a restart looks for it among the channel's recent messages), ``async
  report_pictures(happened, record, lang)`` attaches pictures (dropped where the bot may not attach files),
  and ``closed(happened, seats, lang) -> Card`` is what the turn message of the ended step becomes (its
  buttons removed; ``seats[i].awaited``: missed the step); without it the message only loses its buttons.
* ``reminder_line(view, awaited, seconds, lang) -> str``: the reminder is this line on the turn message
  (one edit, nobody pinged; ``awaited``: the human seats still awaited) instead of a ``reminder`` DM to each
  awaited seat. It is the step's one spare call: a choice made outside the turn message (a DM) gives it to
  the close of the message, so the step costs at most its post and one edit besides the DM answers.
* ``nonces``: the nonce prefixes of the game's posts (``{"turn": ..., "report": ..., "final": ...}``), for
  a game whose messages were posted with other nonces before it moved here; ``footer_on_turn = False``:
  the turn message gets no "game N" footer.
* ``status_at(view, prompt, seats, since, deadline, lang)``: ``status`` with the step's deadline;
  ``score_at(view, seats, status, lang)``: ``score`` with the game's status ("running", "finished", ...).
* ``lobby_embed(record, lang, headline, passed) -> Embed``: the game draws its own lobby (``headline``: the
  lobby is closed with it; ``passed``: (old host, new host) when the host left).
* ``wording``: shared sentence keys the game words its own way (``{"core.dm.lobby": "thenumber.dm.lobby"}``).
* ``join_dm(channel_id, lang) -> str``: a DM to a player who takes a seat (how to play by DM).
* ``acknowledge(view, action, changed, complete, channel_id, lang) -> str``: ``ack`` knowing the step's
  table view, whether the step is now complete, and the channel.
* ``refusal_for(error, view, lang)``: ``refusal`` with the refused seat's own view (what it may do instead).
* ``not_asked(view, seat, lang) -> str | None``: why the current step does not ask ``seat``.
* ``turn_over(view, prompt, seats, deadline, lang) -> Card``: the answer to text sent for a step that is
  over (the step open now); ``modal_for_step(step, lang) -> Inputs``: the modal of a step when the table
  is slow to load (the submission is checked anyway); ``text_field_id``: the modal's text input id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.core.game import Action, Prompt, RuleError, Seat

MAX_CHOICES = 25  # buttons on one message (5 rows of 5), options in one select


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


@dataclass(frozen=True, slots=True)
class TextInput:
    label: str
    placeholder: str = ""
    min_length: int = 1
    max_length: int = 20


@dataclass(frozen=True, slots=True)
class Inputs:
    """How the current seat gives its action, built from the prompt and the legal list."""

    choices: tuple[Choice, ...] = ()  # open prompt: the turn message's buttons; sealed: the private buttons
    labels: tuple[str, ...] = ()  # one per legal action, for a private select
    private_label: str = ""  # sealed: the public "Choose secretly" button
    placeholder: str = ""  # a select's placeholder
    text: TextInput | None = None  # sealed with legal None: the modal's field
    title: str = ""  # the modal's or the private view's title


@dataclass(frozen=True, slots=True)
class Happened:
    """A committed step, for the presenter: the event, the public views before and after it."""

    step: int
    event: Any
    before: Any
    after: Any
    reason: str  # "moved", "all-chosen", "chance", "ai", "deadline", "absent"
    timed_out: frozenset[Seat] = frozenset()
    finished: bool = False
    game_id: int = 0


class Presenter(Protocol):
    """Everything a game says on Discord. ``view`` is always the table's view unless a seat is named."""

    key: str  # the game's key
    colour: discord.Colour

    def title(self, lang: str) -> str:
        """The game's name as players read it."""
        ...

    def lobby(self, options: Mapping[str, Any], lang: str) -> str:
        """The lobby's description: what the game is and the table's options."""
        ...

    def rules(self, lang: str) -> Card:
        ...

    def status(self, view: Any, prompt: Prompt, seats: Sequence[SeatInfo], since: Sequence[Happened],
               lang: str) -> Card:
        """The turn message of a step awaiting humans; ``since``: every step committed since the previous turn
        message was posted (that message's own step first, then AI moves, chance draws, passes), to tell."""
        ...

    def done(self, happened: Happened, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        """What the turn message becomes once its step is over (no buttons): the move made, after ``since``
        (what the turn message told before it, which the edit must keep)."""
        ...

    def final(self, view: Any, seats: Sequence[SeatInfo], since: Sequence[Happened], lang: str) -> Card:
        """The end of the game: points and winners, with what happened since the last turn message."""
        ...

    def inputs(self, view: Any, prompt: Prompt, seat: Seat, legal: Sequence[Action] | None, lang: str) -> Inputs:
        """The input widgets for ``seat`` (``view`` is that seat's own view when the prompt is sealed)."""
        ...

    def ack(self, action: Action, changed: bool, lang: str) -> str:
        """A private acknowledgement of a sealed draft (never shown to anyone else)."""
        ...

    def refusal(self, error: RuleError, lang: str) -> str:
        """A refused action in the player's language."""
        ...

    def reminder(self, view: Any, seat: Seat, seconds: int, channel_id: int, lang: str) -> str:
        """A DM before the deadline to a seat still awaited."""
        ...

    def score(self, view: Any, seats: Sequence[SeatInfo], lang: str) -> Card:
        ...

    def board(self, view: Any, seat: Seat, seats: Sequence[SeatInfo], lang: str) -> Card:
        """One seat's board (``view`` is that seat's own view only when the asker is that seat)."""
        ...


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
