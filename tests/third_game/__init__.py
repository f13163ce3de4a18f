"""Three in a row: a throwaway third game, to show that a game is a folder.

A trivial game on a 5×4 board, made only of this folder and one line in its own
settings (``tests.third_game.settings``): the site plays it through the home form,
the API and a record (``tests/game/test_third_game.py`` runs ``plays.py`` under those
settings) without a file outside this folder knowing it is there.
"""
