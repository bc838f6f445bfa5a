"""Nim's words, one module per language (``MESSAGES``, every key starting ``nim.``)."""
