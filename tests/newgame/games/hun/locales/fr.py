"""Highest unique number : français."""

MESSAGES = {
    "hun.title": "Plus grand nombre unique",
    "hun.cmd.hun": "hun",
    "hun.cmd.hun.desc": "Jouer au plus grand nombre unique : le plus grand nombre choisi par un seul marque",
    "hun.cmd.start.desc": "Ouvrir une table de Plus grand nombre unique dans ce salon",
    "hun.cmd.rules.desc": "Comment jouer au Plus grand nombre unique",
    "hun.cmd.opt.ai_players.desc": "Joueurs IA à installer tout de suite (0-5)",
    "hun.rules.title": "Comment jouer au Plus grand nombre unique",
    "hun.rules.text": ("À chaque manche, chacun choisit en secret un nombre de 1 à 7. Le plus grand nombre choisi "
                       "par un seul joueur lui rapporte sa valeur. Cinq manches ; le plus de points gagne."),
    "hun.lobby.description": ("Choisissez un nombre en secret à chaque manche : le plus grand choisi par un seul "
                              "marque. {min} à {max} joueurs, {seconds} s par manche.\nAppuyez sur **Rejoindre** ; "
                              "l'hôte appuie sur **Lancer**."),
    "hun.status.title": "Manche {round} : choisissez en secret",
    "hun.status.waiting": "On attend : {names}",
    "hun.button.choose": "Choisir en secret",
    "hun.pick": "{number}",
    "hun.private.title": "Votre nombre pour la manche {round}",
    "hun.revealed": "Manche {round} : {picks}.",
    "hun.revealed.winner": "{name} marque {value}.",
    "hun.revealed.nobody": "Aucun nombre unique : personne ne marque.",
    "hun.done.title": "Manche {round} révélée",
    "hun.final.title": "Plus grand nombre unique : partie terminée",
    "hun.final.winners": "Gagnant : {names}",
    "hun.score.title": "Scores",
    "hun.score.line": "{points} {points:plural:point|points}",
    "hun.board.title": "{name}",
    "hun.reminder": "Plus que {seconds} s pour choisir votre nombre dans {channel}.",
    "hun.error.range": "Choisissez un nombre de {low} à {high}.",
    "hun.error.not_a_number": "{text} n'est pas un nombre.",
    "hun.error.over": "La partie est terminée.",
    "hun.ai.about.easy": "Choisit n'importe quel nombre",
    "hun.ai.about.normal": "Choisit parmi les grands nombres",
    "hun.ai.about.hard": "Évite le nombre le plus choisi à la manche précédente",
}
