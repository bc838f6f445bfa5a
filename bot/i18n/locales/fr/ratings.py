"""Messages français des classements Elo : les variations du message final, /<jeu> stats, le classement par
niveau et les saisons (zone ``ratings``)."""

MESSAGES: dict[str, str] = {
    "ratings.number": "{value}",
    "ratings.provisional_mark": "{value} ?",
    # le message final
    "ratings.final.title": "Niveaux sur ce serveur",
    "ratings.final.line": "{who} : {change} → **{rating}**",
    "ratings.final.footer": "? provisoire : moins de {count} parties classées. Les joueurs IA ne sont pas classés.",
    # /<jeu> stats
    "ratings.stats.server": "Niveau sur ce serveur",
    "ratings.stats.global": "Niveau tous serveurs",
    "ratings.stats.season": "Saison {season}",
    "ratings.stats.value": "**{rating}** ({games} {games:plural:partie classée|parties classées})",
    "ratings.stats.provisional": "**{rating}** (provisoire : {games} parties sur {count})",
    # /<jeu> classement par niveau, saison
    "ratings.lb.title": "{game} : classement par niveau",
    "ratings.lb.title.season": "{game} : saison {season} par niveau",
    "ratings.lb.row": "**{rank}.** {name} : **{rating}** ({games} {games:plural:partie|parties})",
    "ratings.lb.empty": "Personne n’a encore {count} parties classées ici.",
    "ratings.lb.footer": "Depuis toujours sur ce serveur · au moins {count} parties classées (moins : provisoire)",
    "ratings.lb.footer.season": "Du {start} au {end} (UTC) · au moins {count} parties classées",
    "ratings.lb.period_ignored": "le niveau compte toutes les parties : choisissez une saison pour une période",
    "ratings.podium.title": "{game} : podiums des saisons passées",
    "ratings.podium.season": "Saison {season}",
    "ratings.podium.none": "Personne n’a atteint {count} parties classées.",
    "ratings.podium.empty": "Pas encore de saison passée sur ce serveur.",
    "ratings.podium.footer": "Chaque saison repart de zéro : {length}.",
    "ratings.length.month": "une saison dure un mois civil (UTC)",
    "ratings.length.quarter": "une saison dure un trimestre civil (UTC)",
    # /<jeu> saisons
    "ratings.seasons.set": "Désormais, {length}. Les parties déjà classées gardent leur saison.",
    "ratings.seasons.shown": "Sur ce serveur, {length}. Les membres avec Gérer le serveur peuvent la changer.",
    "ratings.seasons.not_allowed": "Seuls les membres avec Gérer le serveur peuvent changer la durée des saisons.",
    # commandes
    "ratings.cmd.seasons": "saisons",
    "ratings.cmd.seasons.desc": "La durée d'une saison de classement sur ce serveur (mois ou trimestre)",
    "ratings.opt.length": "duree",
    "ratings.opt.length.desc": "Un mois ou un trimestre (Gérer le serveur) ; vide : voir l'actuelle",
    "ratings.opt.season": "saison",
    "ratings.opt.season.desc": "Saisons de classement : celle en cours, ou les podiums des passées",
    "ratings.choice.rating": "Niveau",
    "ratings.choice.current": "Cette saison",
    "ratings.choice.past": "Saisons passées (podiums)",
    "ratings.choice.month": "Un mois",
    "ratings.choice.quarter": "Un trimestre",
}
