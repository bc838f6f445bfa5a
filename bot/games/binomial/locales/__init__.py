"""binomial's words, one module per language (``MESSAGES``, every key starting ``binomial.``); see bot/i18n."""
