"""The words a player may DM during a game besides a move, in every game: ``help`` / ``rules`` / ``?``,
``board`` / ``score``, ``quit`` / ``leave`` (French too). Leaving forfeits a running game, so ``quit`` first
says so and how to confirm (``quit yes``): a stray word never throws a game away."""

from __future__ import annotations

import unicodedata
from typing import Any

import discord

from bot.core.service import ABANDONED, GameService
from bot.i18n import t
from storage.base import GameRecord

from .poster import Poster
from .presenter import Presenters
from .table_state import TableState
from .turn_messages import seat_infos

WORDS = {
    "help": "help", "?": "help", "aide": "help", "commands": "help", "commandes": "help",
    "rules": "rules", "règles": "rules", "regles": "rules",
    "board": "board", "plateau": "board", "grille": "board",
    "score": "score", "scores": "score",
    "quit": "quit", "leave": "quit", "quitter": "quit", "abandon": "quit",
}
CONFIRM = frozenset({"yes", "oui", "y", "o", "confirm"})


def dm_command(text: str) -> tuple[str, bool] | None:
    """(the command, confirmed) a DM asks for, or None when it is not one of the words (a move, maybe)."""
    words = unicodedata.normalize("NFKC", text).strip().lower().strip("!/.").split()
    if not words or words[0] not in WORDS or len(words) > 2:
        return None
    command = WORDS[words[0]]
    confirmed = len(words) == 2 and words[1] in CONFIRM
    if len(words) == 2 and not (command == "quit" and confirmed):
        return None
    return command, confirmed


class DMCommands:
    """Answers the words above for the :class:`~cogs.table.inbox.Inbox` (a DM that is not a move)."""

    def __init__(self, service: GameService, presenters: Presenters, poster: Poster, state: TableState) -> None:
        self.service = service
        self.presenters = presenters
        self.poster = poster
        self.state = state

    async def run(self, command: str, confirmed: bool, record: GameRecord, user_id: int,
                  channel: discord.abc.Messageable, nonce: str, lang: str, answer: Any) -> None:
        presenter = self.presenters[record.kind]
        where = f"<#{self.poster.where(record)}>"  # the table's thread, if it plays in one
        if command == "help":
            await answer(t("core.dm.help", lang, game=presenter.title(lang), channel=where,
                           how=presenter.dm_how(lang)))
            return
        if command == "rules":
            await self.poster.send(channel, nonce=nonce, card=presenter.rules(lang))
            return
        table = await self.service.table(record.id)
        seated = table.record.seat_of(user_id)
        if command == "quit":
            if seated is None:
                await answer(t("core.error.not_in_game", lang))
            elif not confirmed:
                await answer(t("core.dm.quit_confirm", lang, game=presenter.title(lang), channel=where))
            else:
                status_message = self.state.turn_message_id(record.id) or record.status_message_id
                outcome = await self.service.remove(record.id, user_id, user_id, kicked=False)
                abandoned = outcome.table.record.end_reason == ABANDONED
                await answer(t("core.reply.left_abandoned" if abandoned else "core.reply.left_game", lang))
                await self.poster.after_removal(outcome, status_message)
            return
        public = table.game.view(table.state, None)
        if command == "score" or seated is None:
            card = presenter.score_at(public, seat_infos(table), table.record.status, lang)
        else:  # their own board: the asker is that seat, so its own view (never shown to anyone else)
            card = presenter.board(table.game.view(table.state, seated.seat), seated.seat, seat_infos(table), lang)
        await self.poster.send(channel, nonce=nonce, card=card)
