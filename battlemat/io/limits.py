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
# Every object of every layer becomes a Python object in pytmx (about 12 us and 1.1 KB each: a map of a
# million objects took 12 s and 1.1 GB to check). Objects are counted while the XML is parsed (and by
# a byte scan before it, when the file has no comments), so such a file is refused in well under a
# second, before its tree is built. A large real map has a few thousand.
MAX_MAP_OBJECTS = 100_000
# Every XML element costs the parser about 7 us and the tree about 0.3 KB. A map within MAX_CELLS in
# the old XML layer format (one <tile> per square) needs a million, so twice that is the bound,
# counted while parsing, and refused from the bytes alone (two "<" per element at most) when it is
# far over.
MAX_XML_ELEMENTS = 2_000_000
# How deeply elements (XML) or arrays and objects (JSON) may nest. Group layers nest in Tiled, and
# pytmx, the templates and the layer walk follow them; thousands of nested groups exhaust Python's
# recursion. Checked while parsing, without recursion. A real map nests group layers a few deep; the
# deepest element of a map (a class property of an object in a group) sits some 10 levels below that.
MAX_NESTING = 100
# A JSON map or tileset (.tmj, .tsj) becomes a Python dict for each {...}, about 0.2 KB each before
# its contents, and a polygon point is one: the braces are counted in the bytes before parsing.
MAX_JSON_OBJECTS = 500_000
# A JSON layer's gids become Python ints (some 36 bytes each): the values of a JSON file, counted by
# their commas before parsing, are bounded like the cells of a map (a few per cell).
MAX_JSON_VALUES = 4 * MAX_CELLS
# Images embedded in a map or tileset (<image><data>, Base64) are decoded only up to this size.
MAX_EMBEDDED_IMAGE_BYTES = 16 * 1024 * 1024
