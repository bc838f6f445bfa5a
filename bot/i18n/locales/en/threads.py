"""A table in a thread (issue 36, point 1): the start option, /server threads and the lines told: English."""

MESSAGES = {
    "threads.name": "{game} · table {id}",
    "threads.started": "The game has started: its turns are in the thread {thread}.",
    "threads.over": "The game is over: the result is in {channel}.",
    "threads.refused": ("I could not open a thread for this table ({why}): the game is played here in the channel "
                        "instead."),
    "threads.why.permission": "I need the **Create Public Threads** and **Send Messages in Threads** permissions",
    "threads.why.channel": "threads cannot be opened in this kind of channel",
    "threads.why.failed": "Discord refused it",
    "threads.cmd.threads": "threads",
    "threads.cmd.threads.desc": "Whether each new table plays in a thread of its own (Manage Server)",
    "threads.cmd.threads.on": "on",
    "threads.cmd.threads.on.desc": "True: a thread per table by default; False: in the channel (empty: show it)",
    "threads.shown.on": "New tables in this server play in a thread of their own (the `thread` option of "
                        "`start` can say otherwise).",
    "threads.shown.off": "New tables in this server play in their channel (the `thread` option of `start` can say "
                         "otherwise).",
    "threads.not_allowed": "Only members with Manage Server can change where this server's tables play.",
}
