"""Old path of battlemat.teach.rules_search and battlemat.teach.glossary, kept only because
battlemat/ui/screens.py (owned by the window's rewrite) still imports them from here. Delete this
file once ui imports battlemat.teach.rules_search and battlemat.teach.glossary."""

from battlemat.teach.glossary import glossary, glossary_entry
from battlemat.teach.rules_search import Hit, entry_text, search, suggestions

__all__ = ["Hit", "entry_text", "glossary", "glossary_entry", "search", "suggestions"]
