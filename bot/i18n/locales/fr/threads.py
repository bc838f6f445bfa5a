"""Une table dans un fil (issue 36, point 1) : l'option de start, /server threads et ce qui est dit : français."""

MESSAGES = {
    "threads.name": "{game} · table {id}",
    "threads.started": "La partie a commencé : ses tours sont dans le fil {thread}.",
    "threads.over": "La partie est finie : le résultat est dans {channel}.",
    "threads.refused": ("Je n'ai pas pu ouvrir de fil pour cette table ({why}) : la partie se joue ici, dans le "
                        "salon."),
    "threads.why.permission": ("il me faut les permissions **Créer des fils publics** et **Envoyer des messages "
                               "dans les fils**"),
    "threads.why.channel": "on ne peut pas ouvrir de fil dans ce genre de salon",
    "threads.why.failed": "Discord l'a refusé",
    "threads.cmd.threads": "fils",
    "threads.cmd.threads.desc": "Chaque nouvelle table se joue-t-elle dans son propre fil (Gérer le serveur)",
    "threads.cmd.threads.on": "actif",
    "threads.cmd.threads.on.desc": "True : un fil par table par défaut ; False : dans le salon (vide : l'afficher)",
    "threads.shown.on": "Les nouvelles tables de ce serveur se jouent dans leur propre fil (l'option `fil` de "
                        "`start` peut en décider autrement).",
    "threads.shown.off": "Les nouvelles tables de ce serveur se jouent dans leur salon (l'option `fil` de `start` "
                         "peut en décider autrement).",
    "threads.not_allowed": "Seuls les membres qui ont Gérer le serveur peuvent changer où se jouent les tables.",
}
