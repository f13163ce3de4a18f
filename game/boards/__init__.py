"""The boards the games are played on, each game declaring its own: square boards of
any width and height, flat or wrapping round, with squares cut away or not
(``SquareBoard``), and the hexagon of cells (``HexBoard``).

Pure Python, standard library only, like the engines that build on them. A board
numbers its cells 0, 1, 2… in reading order (rows top to bottom, and left to right
within a row); a cell's name is a letter for its column and a number for its row
(``A1`` top left), as every game's rule book writes them. Everything a page needs
to lay a board out (``place``: the grid row and column of each cell, ``rows``,
``columns``, ``shape``) and everything an engine needs to walk it (``step``,
``neighbours``, ``ray`` along a direction) is here, built once per board.
"""

from __future__ import annotations

from game.boards.hexagon import HexBoard
from game.boards.square import SquareBoard

__all__ = ["HexBoard", "SquareBoard"]
