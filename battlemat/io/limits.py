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

# -- maps (Universal VTT: .dd2vtt, .uvtt, .df2vtt) ----------------------------------------------------
# One JSON document with the map's picture inside as base64 (battlemat.io.uvtt). The picture is most of
# the file: a Dungeondraft export of 10 x 10 squares at 256 pixels a square is 3.8 MB, a large map at 100
# pixels a square some 10-30 MB; the file is read whole (bounded like a Tiled map, MAX_FILE_BYTES).
MAX_UVTT_BYTES = MAX_FILE_BYTES
# The picture's size is read from its header before anything is decoded (a PNG of a few KB may claim
# 100000 x 100000 pixels: 40 GB once decoded). 64 megapixels (8192 x 8192) is 256 MB decoded as RGBA,
# the most a map's picture may cost; 100 x 70 squares at 70 pixels a square is 34 megapixels.
MAX_UVTT_PIXELS = 64 * 1024 * 1024
# Wall segments (every pair of consecutive points of `line_of_sight` and `objects_line_of_sight`) and
# portals together. A furnished Dungeondraft map has a few thousand (a round pillar's outline alone is
# some 60 points); each wall costs the board's neighbour table (geometry.barrier_between) the squares
# around it, so ten thousand keep a board's first turn within a second or two.
MAX_UVTT_WALLS = 10_000
MAX_UVTT_PIXELS_PER_GRID = 1024  # Dungeondraft's best quality is 256; more is a typo, not a map
MAX_UVTT_LIGHTS = 1_000  # lights are drawn, never read by a rule; a real map has tens
# Every {x, y} point is a Python dict once parsed (about 0.2 KB): the braces and commas of the JSON are
# counted in the bytes before parsing (base64 holds neither), so a file of millions of points is refused
# before it is parsed. Each point is one brace and two commas; walls, portals and lights fit many times.
MAX_UVTT_JSON_OBJECTS = 100_000
MAX_UVTT_JSON_VALUES = 500_000

# -- encounters, saves and rules overrides ----------------------------------------------------------
# Every one is read through battlemat.io.userfile.read_user_file: at most the bound plus one byte is
# read (so an endless file such as /dev/zero costs nothing), and only regular files are opened (a FIFO
# would block, a device never ends).
# The bundled encounters are 2-5 KB; 50 full character sheets take about 25 KB, so 1 MB leaves room
# for thousands of scripted turns. tomllib (pure Python) parses 1 MB in about 0.6 s.
MAX_ENCOUNTER_BYTES = 1024 * 1024
# A save holds one intent per character and turn, about 60-150 bytes each as battlemat writes them:
# MAX_TURNS turns of MAX_CHARACTERS intents are about 3 MB, parsed by json in 0.1 s.
MAX_SAVE_BYTES = 8 * 1024 * 1024
# Tables and arrays nested deeper than this are refused before parsing: tomllib and json recurse once
# per level and fail near 300-1000 levels with a RecursionError. The deepest a battlemat file needs is
# 7 (a square of an intent's path: file > turn list > turn > intent list > intent > path > square).
MAX_DATA_NESTING = 32
# Characters in one encounter. The AI's cost per turn grows with the square of the count (every
# character weighs every foe: sight lines, walking distances). Measured: one simulated turn (AI
# decisions and resolution) on a 100x100 map, two sides, warm caches: 10 characters 0.25 s,
# 25: 0.6 s, 50: 1.0-1.5 s, 64: 1.8-2.9 s, 100: 3.2-4.2 s, 200: 7.7-18.5 s, 10,000: over 5 minutes.
# 50 keeps a turn well under a few seconds and is more than a tabletop skirmish fields.
MAX_CHARACTERS = 50
# Turns scripted in an encounter or recorded in a save: each is played when the file is resolved or
# loaded (a save replays every turn and asks the NPCs for the next, as the game did: 500 turns of the
# art gallery load in 0.2-0.4 s, but with MAX_CHARACTERS on a large map a turn of NPC decisions takes
# a second). A combat is rarely longer than the simulator's default cap of 30 turns.
MAX_TURNS = 500
# The game master's door changes in a save (each toggles one door between turns, and each writes a
# line in the log when replayed): a GM who toggles ten doors every turn of MAX_TURNS stays within it.
MAX_DOOR_CHANGES = 10 * MAX_TURNS
# Squares of characters in an encounter without a map: `battlemat play` builds a plain arena just big
# enough for them (3 squares beyond the farthest), so [10**12, 5] would ask for terabytes. Squares run
# from [0, 0] to [MAX_ARENA_SQUARE, MAX_ARENA_SQUARE]; the arena is then at most 1002 x 1002, the size
# of the largest map (MAX_CELLS). Measured: `play --screenshot` with a character at [999, 999] takes
# 6.4 s and 350 MB (at [5000, 5000]: 30 s and 1.7 GB).
MAX_ARENA_SQUARE = 999
# Seeds (in an encounter or a save) are 64-bit whole numbers: a run's seed is written into text and
# Python refuses to write an int of more than 4,300 digits.
MAX_SEED = 2**63 - 1
# Numbers in an encounter's [rules] overrides: every rules number is a small count, a bonus, a target
# number or metres per rating; a huge one (or NaN, inf) would turn into dice pools or jump ranges of
# that size.
MAX_RULES_NUMBER = 100
MAX_RULES_LIST = 100  # values in a list override (group_table, aggressive_skills)

# -- the command line ------------------------------------------------------------------------------
# `simulate --workers N`: each worker is a process holding its own engine, compiled search and map
# (100-300 MB each), and more workers than cores only queue; 64 is far past any machine's use.
MAX_WORKERS = 64
# `--runs N` (simulate, arena, balance): every finished run's result (a few KB: each character's
# fate, the squares of its defeats and stops, its skills) is kept for the statistics and the report,
# so 100,000 runs hold some hundreds of MB; they give a win rate to +-0.3%, past any question a
# batch answers. Runs are streamed to the workers, never listed up front (sim.pool).
MAX_RUNS = 100_000
# `--max-turns N`: a stalemate plays to the cap in every run, and a turn of NPC decisions on a large
# map with many characters takes a second (MAX_TURNS above), so the cap is the turns a save may hold.
MAX_TURN_CAP = 500
# `calibrate --samples N`: each cell of an engine's table draws its N contests as numpy arrays
# (about 50 bytes a sample): 2 million is about 100 MB and a few seconds a cell.
MAX_CALIBRATE_SAMPLES = 2_000_000
# `predict --samples N`: each sample resolves the whole turn (AI and resolver, up to a second on a
# large map): 1,000 samples tell the spread of losses to a few percent.
MAX_PREDICT_SAMPLES = 1_000
# `balance --depth N`: every depth screens all the small changes again on top of the best so far;
# three changes combined is already a different encounter.
MAX_BALANCE_DEPTH = 3
MAX_FRAMES = 1000  # `play --screenshot --frames N`: a frame takes 10-100 ms, so at most about a minute
MAX_WINDOW = (7680, 4320)  # `play --size`: an 8K display; pygame cannot scale far beyond (a 4-byte pixel each)
