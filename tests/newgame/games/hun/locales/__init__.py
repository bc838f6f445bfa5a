"""Highest unique number's words, one module per language (``MESSAGES``, every key starting ``hun.``)."""
