"""The site kit: what every game's pages stand on.

Live streams and their news (``kit.live``), who may open a stream and how a stream
view answers (``kit.streams``), how many watch each game (``kit.audience``), how
often a client may ask (``kit.limits``) and how many connections a process serves
(``kit.capacity``). The kit imports no other app of the site: the games, the lobby,
the chat and the notices stand on it, never the other way round.
"""
