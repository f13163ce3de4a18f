"""HTTP in, HTML out, by page family: a view reads the request, calls ``game.play``
(or reads), builds the page's values (``game.pages``) and renders a template.

- ``games``: the game page and its actions (move, resign, hint, takeback, rematch,
  join, seats) and its live parts (poll, stream);
- ``review``: looking back (analysis, records, pictures, import, continuing a game);
- ``positions``: any position, its editor and picture;
- ``learn``: the lessons;
- ``site``: the home page and the site's own pages.

``common`` holds what they share, among it the one rule for a refusal (``refuse``).
"""
