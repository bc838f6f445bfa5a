"""Parties au long cours (issue 38) : échéances, rappels, /mygames, /server timezone, le résumé de /notify."""

MESSAGES = {
    "daily.deadline": "⏳ Échéance {when} ({left})",
    "daily.remind": ("⏰ Votre tour vous attend dans {game} dans {channel} : l'échéance est {when} ({left}) ; ensuite "
                     "le bot joue pour vous. {link}"),
    "daily.mention": "⏰ {names} : votre tour vous attend dans {game} ; échéance {left}.",
    "daily.dm.away": ("Vous avez manqué {misses} échéances de suite dans votre partie de {game} dans {channel} : "
                      "l'IA joue désormais vos tours pour que la table continue (un tour qui n'attend que vous dure "
                      "une heure, et vous n'êtes plus rappelé). Jouez un coup (un bouton du message de tour, ou un "
                      "MP) pour revenir."),
    "daily.pace.live": "en direct",
    "daily.pace.daily": "au long cours",
    "daily.cmd.mygames": "mesparties",
    "daily.cmd.mygames.desc": "Toutes les tables qui vous attendent, sur tous les serveurs",
    "daily.cmd.server": "serveur",
    "daily.cmd.server.desc": "Les réglages du bot pour ce serveur",
    "daily.cmd.timezone": "fuseau",
    "daily.cmd.timezone.desc": "Le fuseau horaire des heures calmes des parties au long cours (Gérer le serveur)",
    "daily.cmd.timezone.zone": "fuseau",
    "daily.cmd.timezone.zone.desc": "Un fuseau IANA, comme Europe/Paris (vide : voir l'actuel)",
    "daily.cmd.notify.summary": "resume",
    "daily.cmd.notify.summary.desc": "Un MP quotidien listant les tables qui vous attendent (oui ou non)",
    "daily.reply.summary": "Un MP quotidien listant les tables qui vous attendent **{summary}**.",
    "daily.mygames.none": "Aucune table ne vous attend pour l'instant.",
    "daily.mygames.head": "{count} {count:plural:table vous attend|tables vous attendent} :",
    "daily.mygames.line": "• **{game}** dans {channel} ({pace}), échéance {left} : {link}",
    "daily.mygames.more": "…et {count} de plus.",
    "daily.summary": ("Votre résumé quotidien des tables qui vous attendent (désactivez-le avec "
                      "`/notify resume:False`) :"),
    "daily.timezone.shown": "Les parties au long cours de ce serveur se taisent de 23:00 à 08:00, fuseau **{zone}**.",
    "daily.timezone.set": ("Désormais les parties au long cours de ce serveur se taisent de 23:00 à 08:00, fuseau "
                           "**{zone}**."),
    "daily.timezone.unknown": ("`{zone}` n'est pas un fuseau horaire que je connais. Donnez un nom IANA comme "
                               "`Europe/Paris`, `America/New_York` ou `UTC`."),
    "daily.timezone.not_allowed": "Seuls les membres qui peuvent gérer le serveur changent son fuseau horaire.",
}
