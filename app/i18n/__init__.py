"""Languages: the catalogues in static/i18n/<lang>.json (one flat JSON object of keys per
language, read by the server and fetched by the client), texts rendered in a receiver's
language, and the choice of that language (docs/client.md, "Languages")."""

from __future__ import annotations

from .catalog import CATALOGUES, DEFAULT, LANGS, Catalogue, has, render
from .choose import from_accept_language, pick

__all__ = ["CATALOGUES", "DEFAULT", "LANGS", "Catalogue", "from_accept_language", "has", "pick", "render"]
