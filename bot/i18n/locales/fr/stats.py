"""Messages en français des statistiques, classements, historiques, parties et exports de chaque jeu
(domaine ``stats``)."""

MESSAGES: dict[str, str] = {
    "stats.fmt.decimal_point": ",",
    "stats.fmt.percent": "{value} %",
    # /thenumber stats
    "stats.player.title": "{game} : statistiques de {name}",
    "stats.player.none": "Aucune partie terminée sur ce serveur pour l’instant.",
    "stats.player.games": "Parties jouées",
    "stats.player.wins": "Victoires",
    "stats.player.win_rate": "Taux de victoire",
    "stats.player.average": "Score final moyen",
    "stats.player.best": "Meilleure partie",
    "stats.player.best_value": "**{score}** {score:plural:point|points} dans la partie n° {game} ({channel}, {date})",
    "stats.player.approval": "Nombres validés",
    "stats.player.approval_value": "{approved} sur {played} ({rate})",
    "stats.player.digit": "Premier chiffre préféré",
    "stats.player.digit_value": "**{digit}** ({count} {count:plural:nombre|nombres})",
    "stats.player.footer": "Parties terminées sur ce serveur. Une victoire partagée compte comme une victoire.",
    # /thenumber leaderboard
    "stats.lb.title.wins": "{game} : classement par victoires",
    "stats.lb.title.rate": "{game} : classement par taux de victoire",
    "stats.lb.title.average": "{game} : classement par score moyen",
    "stats.lb.row.wins": (
        "**{rank}.** {name} : **{wins}** {wins:plural:victoire|victoires} en {games}"
        " {games:plural:partie|parties} ({rate})"),
    "stats.lb.row.rate": (
        "**{rank}.** {name} : **{rate}** ({wins} {wins:plural:victoire|victoires} en"
        " {games} {games:plural:partie|parties})"),
    "stats.lb.row.average": (
        "**{rank}.** {name} : **{average}** points en moyenne ({games}"
        " {games:plural:partie|parties})"),
    "stats.lb.empty": "Personne n’est encore classé sur cette période.",
    "stats.lb.min_games": "au moins {count} parties pour être classé",
    "stats.lb.page": "page {page} sur {pages}",
    "stats.lb.previous": "Précédent",
    "stats.lb.next": "Suivant",
    "stats.period.all": "Depuis toujours",
    "stats.period.month": "Ce mois-ci (UTC)",
    "stats.period.week": "Cette semaine (depuis lundi, UTC)",
    # /thenumber history
    "stats.history.title": "{game} : dernières parties sur ce serveur",
    "stats.history.empty": "Aucune partie terminée sur ce serveur pour l’instant.",
    "stats.history.line": "**Partie n° {game}** · {when} · {channel}",
    "stats.history.footer": "/{command} game id:<numéro> montre une partie tour par tour.",
    # /thenumber game
    "stats.game.line": "`{number}` {who} : {result}",
    "stats.game.standing": "{who} : **{score}** ({rounds})",
    "stats.game.and": "et",
    "stats.game.round": "Partie n° {game} · Manche {round}",
    "stats.game.turn": "Tour {turn} (bonus +{bonus})",
    "stats.game.approved": "✅ validé, **{points}**{bonus}",
    "stats.game.bonus": " (dont +{bonus} de bonus 🏆)",
    "stats.game.eliminated": "❌ éliminé, partage {digits} avec {blocker}",
    "stats.game.invalid": "🚫 invalide, utilise un chiffre barré",
    "stats.game.missing": "⌛ absent",
    "stats.game.exhausted": "💤 passe son tour, plus aucun chiffre",
    "stats.game.round_totals": "Totaux de la manche (chiffres barrés compris) : {totals}",
    "stats.game.final": "Partie n° {game} : classement final",
    "stats.game.unfinished": "Partie n° {game} : scores à l’arrêt de la partie",
    "stats.game.where": "Jouée",
    "stats.game.where_value": "dans {channel}, terminée {when}",
    # /<jeu> game d’un jeu sans présentation propre : le classement final
    "stats.game.score": "{who} : **{score}**",
    "stats.game.steps": "{steps} coups",
    # /<jeu> stats : les lignes de Numeri
    "stats.numeri.never_entered": "Pions jamais entrés",
    "stats.numeri.never_entered_value": "{count} en {games} {games:plural:partie|parties} ({average} par partie)",
    "stats.numeri.points": "Points moyens par pion",
    "stats.numeri.points_value": "**{average}** ({tokens} pions)",
    # /<jeu> stats : les lignes de Binomial
    "stats.binomial.cards": "Cartes gagnées",
    "stats.binomial.cards_value": "{cards} ({average} par partie)",
    "stats.binomial.fights": "Combats gagnés",
    "stats.binomial.fights_value": "{won} sur {fights} ({rate})",
    "stats.binomial.per_card": "Points par carte gagnée",
    "stats.binomial.per_card_value": (
        "**{average}** ({points} {points:plural:point|points} pour"
        " {cards} {cards:plural:carte|cartes})"),
    # /thenumber export
    "stats.export.done": "La partie n° {game} en script de rejeu : `python -m bot replay {file}` la rejoue.",
    # refusals
    "stats.error.guild_only": "Les statistiques sont propres à chaque serveur : utilisez cette commande "
                              "dans un salon d’un serveur.",
    "stats.error.no_game": "Il n’y a pas de partie n° {game} sur ce serveur.",
    "stats.error.not_finished": "La partie n° {game} n’est pas terminée ; ses révélations sont dans son salon.",
    "stats.error.not_owner": "Voici cette page rien que pour vous ; les boutons ci-dessus appartiennent à la "
                             "personne qui a demandé le classement.",
    "stats.error.failed": "Un problème est survenu de mon côté ; veuillez réessayer.",
    # the score race chart
    "stats.chart.title": "Partie n° {game} : course aux points",
    "stats.chart.x": "Tour",
    "stats.chart.y": "Score total",
    "stats.chart.round": "manche {round}",
    # commandes slash (noms : minuscules, sans espace)
    "stats.cmd.stats": "statistiques",
    "stats.cmd.stats.desc": "Les chiffres d’un joueur sur ce serveur (par défaut : les vôtres)",
    "stats.cmd.leaderboard": "classement",
    "stats.cmd.leaderboard.desc": "Les meilleurs joueurs de ce serveur",
    "stats.cmd.history": "historique",
    "stats.cmd.history.desc": "Les dernières parties terminées sur ce serveur",
    "stats.cmd.game": "partie",
    "stats.cmd.game.desc": "Une partie terminée de ce serveur, tour par tour",
    "stats.cmd.export": "exporter",
    "stats.cmd.export.desc": "Une partie terminée en fichier de rejeu (python -m bot replay)",
    "stats.opt.player": "joueur",
    "stats.opt.player.desc": "Les chiffres de qui (par défaut : les vôtres)",
    "stats.opt.public": "public",
    "stats.opt.public.desc": "Publier pour tout le salon",
    "stats.opt.period": "période",
    "stats.opt.period.desc": "Quelles parties comptent",
    "stats.opt.by": "critère",
    "stats.opt.by.desc": "Comment classer les joueurs",
    "stats.opt.id": "numéro",
    "stats.opt.id.desc": "Le numéro de la partie (voir l’historique de ce jeu)",
    "stats.choice.all": "Depuis toujours",
    "stats.choice.month": "Ce mois-ci",
    "stats.choice.week": "Cette semaine",
    "stats.choice.wins": "Victoires",
    "stats.choice.rate": "Taux de victoire (au moins 3 parties)",
    "stats.choice.average": "Score moyen (au moins 3 parties)",
}
