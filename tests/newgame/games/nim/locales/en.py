"""Nim: English."""

MESSAGES = {
    "nim.title": "Nim",
    "nim.cmd.nim": "nim",
    "nim.cmd.nim.desc": "Play Nim: take 1 to 3 counters, take the last one to win",
    "nim.cmd.start.desc": "Open a table of Nim in this channel",
    "nim.cmd.rules.desc": "How to play Nim",
    "nim.cmd.opt.ai_players.desc": "AI players to seat now (0-3)",
    "nim.cmd.opt.pile": "pile",
    "nim.cmd.opt.pile.desc": "Counters on the table at the start (5-50, default 21)",
    "nim.rules.title": "How to play Nim",
    "nim.rules.text": "Take turns taking 1, 2 or 3 counters from the pile. Whoever takes the last counter wins.",
    "nim.lobby.description": ("Take 1 to 3 counters in turn; the last counter wins. {min}-{max} players, a pile of "
                              "{pile}, {seconds} s per turn.\nPress **Join** to take a seat; the host presses "
                              "**Start**."),
    "nim.turn.title": "{name}'s turn: {pile} left",
    "nim.take": "Take {count}",
    "nim.took": "{name} took {count}: {left} left.",
    "nim.done.title": "Nim: {left} left",
    "nim.final.title": "Nim: game over",
    "nim.final.winner": "{name} took the last counter and wins.",
    "nim.score.title": "Nim",
    "nim.score.line": "{pile} left; {name} to play",
    "nim.reminder": "{seconds} s left for your turn in {channel}.",
    "nim.error.take": "Take 1 to {most}.",
    "nim.error.not_a_number": "{text} is not a number.",
    "nim.error.over": "The game is over.",
    "nim.error.not_your_turn": "It is not your turn.",
    "nim.ai.about.easy": "Takes at random",
    "nim.ai.about.normal": "Leaves a multiple of four half of the time",
    "nim.ai.about.hard": "Leaves a multiple of four whenever it can",
}
