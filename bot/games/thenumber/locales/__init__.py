"""thenumber's words, one module per language (``MESSAGES``, every key starting ``thenumber.``); see bot/i18n."""
