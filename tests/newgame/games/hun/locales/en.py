"""Highest unique number: English."""

MESSAGES = {
    "hun.title": "Highest unique number",
    "hun.cmd.hun": "hun",
    "hun.cmd.hun.desc": "Play Highest unique number: the highest number nobody else picked scores",
    "hun.cmd.start.desc": "Open a table of Highest unique number in this channel",
    "hun.cmd.rules.desc": "How to play Highest unique number",
    "hun.cmd.opt.ai_players.desc": "AI players to seat now (0-5)",
    "hun.rules.title": "How to play Highest unique number",
    "hun.rules.text": ("Each round every player secretly picks a number from 1 to 7. The highest number that "
                       "nobody else picked scores its value for its player. Five rounds; most points wins."),
    "hun.lobby.description": ("Pick a number secretly each round: the highest one nobody else picked scores. "
                              "{min}-{max} players, {seconds} s per round.\nPress **Join** to take a seat; the host "
                              "presses **Start**."),
    "hun.status.title": "Round {round}: pick secretly",
    "hun.status.waiting": "Waiting for: {names}",
    "hun.button.choose": "Choose secretly",
    "hun.pick": "{number}",
    "hun.private.title": "Your number for round {round}",
    "hun.revealed": "Round {round}: {picks}.",
    "hun.revealed.winner": "{name} scores {value}.",
    "hun.revealed.nobody": "No number was unique: nobody scores.",
    "hun.done.title": "Round {round} revealed",
    "hun.final.title": "Highest unique number: game over",
    "hun.final.winners": "Winner: {names}",
    "hun.score.title": "Scores",
    "hun.score.line": "{points} {points:plural:point|points}",
    "hun.board.title": "{name}",
    "hun.reminder": "{seconds} s left to pick your number in {channel}.",
    "hun.error.range": "Pick a number from {low} to {high}.",
    "hun.error.not_a_number": "{text} is not a number.",
    "hun.error.over": "The game is over.",
    "hun.ai.about.easy": "Picks any number",
    "hun.ai.about.normal": "Picks among the high numbers",
    "hun.ai.about.hard": "Avoids the number most picked last round",
}
