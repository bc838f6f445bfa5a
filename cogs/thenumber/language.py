"""Moved to :mod:`cogs.table.language` (shared by every game's front end); kept so old imports work."""

from cogs.table.language import AUTO, CatalogTranslator, Languages

__all__ = ["AUTO", "CatalogTranslator", "Languages"]
