"""Terminal front ends, without Discord: a game against AI players (``table``), the AI-only arena, the replay.

``table`` plays every registered game through the protocol; what each game shows comes from its screen
(``screen``: the game's own ``terminal.py`` if it has one); ``console`` is the terminal itself.
"""
