"""numeri's words, one module per language (``MESSAGES``, every key starting ``numeri.``); see bot/i18n."""
