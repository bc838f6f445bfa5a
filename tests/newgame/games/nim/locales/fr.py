"""Nim : français."""

MESSAGES = {
    "nim.title": "Nim",
    "nim.cmd.nim": "nim",
    "nim.cmd.nim.desc": "Jouer à Nim : prenez 1 à 3 jetons, qui prend le dernier gagne",
    "nim.cmd.start.desc": "Ouvrir une table de Nim dans ce salon",
    "nim.cmd.rules.desc": "Comment jouer à Nim",
    "nim.cmd.opt.ai_players.desc": "Joueurs IA à installer tout de suite (0-3)",
    "nim.cmd.opt.pile": "tas",
    "nim.cmd.opt.pile.desc": "Jetons sur la table au départ (5-50, 21 par défaut)",
    "nim.rules.title": "Comment jouer à Nim",
    "nim.rules.text": "Chacun à son tour prend 1, 2 ou 3 jetons du tas. Qui prend le dernier jeton gagne.",
    "nim.lobby.description": ("Prenez 1 à 3 jetons à tour de rôle ; le dernier jeton gagne. {min} à {max} joueurs, "
                              "un tas de {pile}, {seconds} s par tour.\nAppuyez sur **Rejoindre** ; l'hôte appuie "
                              "sur **Lancer**."),
    "nim.turn.title": "À {name} : il reste {pile}",
    "nim.take": "Prendre {count}",
    "nim.took": "{name} prend {count} : il reste {left}.",
    "nim.done.title": "Nim : il reste {left}",
    "nim.final.title": "Nim : partie terminée",
    "nim.final.winner": "{name} prend le dernier jeton et gagne.",
    "nim.score.title": "Nim",
    "nim.score.line": "Il reste {pile} ; à {name} de jouer",
    "nim.reminder": "Plus que {seconds} s pour votre tour dans {channel}.",
    "nim.error.take": "Prenez de 1 à {most}.",
    "nim.error.not_a_number": "{text} n'est pas un nombre.",
    "nim.error.over": "La partie est terminée.",
    "nim.error.not_your_turn": "Ce n'est pas votre tour.",
    "nim.ai.about.easy": "Prend au hasard",
    "nim.ai.about.normal": "Laisse un multiple de quatre une fois sur deux",
    "nim.ai.about.hard": "Laisse un multiple de quatre dès qu'il le peut",
}
