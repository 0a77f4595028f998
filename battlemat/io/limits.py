"""Every size bound battlemat puts on what it reads, in one place, each with its reason.

Files people download, share and edit by hand (maps, tilesets, templates, encounters, saves, rules
overrides) must never cost more than their content is worth: a small or endless file may not grow
into gigabytes of memory or minutes of work. Each reader imports its bound from here, so the bounds
are judged together, and every refusal names the bound it hit and what to do instead.
"""

from __future__ import annotations

# -- maps (Tiled) ---------------------------------------------------------------------------------
# The declared size is checked against MAX_CELLS before any layer data is decoded: a 332 KB zlib map
# declaring 8000x8000 costs pytmx 12 s and 1.3 GB.
MAX_CELLS = 1_000_000  # width x height x tile layers; a 100x100 map with 100 layers still fits
MAX_TILES = 1_000_000  # tiles cut from tileset images (pytmx walks every one)
# Every file (map, tileset, template) is parsed whole in memory. A map within MAX_CELLS written as CSV
# is at most about 11 MB (ten-digit gids of flipped tiles), so this leaves room for its tilesets and
# objects, but not for a tree of gigabytes.
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_OBJECTS = 10_000  # objects in the `terrain` and `tokens` layers together
# Compressed layer data is inflated to at most the 4 bytes per cell of the declared map (plus one
# byte to notice more), so a few KB of zlib cannot expand into gigabytes: see xmlsafe.bounded_inflate.
