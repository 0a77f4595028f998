"""A Universal VTT map's picture for the window: its embedded PNG or WebP, decoded by Pillow (through
io.uvtt, bounded like every read) and handed to pygame as RGBA bytes, scaled to the board's pixels.
The renderer draws it as the map's one picture (`renderer.build_art`); walls, doors and lights are
overlays of the board view."""

from __future__ import annotations

from pathlib import Path

import pygame

from battlemat.io.errors import LoadError
from battlemat.io.uvtt import is_uvtt, read_uvtt

__all__ = ["is_uvtt", "uvtt_surface"]


def uvtt_surface(path: Path, width: int, height: int) -> pygame.Surface | None:
    """The map's picture as a surface of `width` x `height` pixels (the board's); None for a file
    without a picture (the board is drawn as a plain arena). Raises LoadError."""
    picture = read_uvtt(path).picture
    if picture is None:
        return None
    try:
        img = picture.decode()
    except ValueError as exc:
        raise LoadError.one(str(path), "image", str(exc), "export the map again") from None
    surface = pygame.image.frombuffer(img.tobytes(), img.size, "RGBA").copy()  # copy: its own pixels
    if surface.get_size() != (width, height):
        surface = pygame.transform.smoothscale(surface, (width, height))
    return surface
