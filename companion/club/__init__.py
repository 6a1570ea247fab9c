"""The club: boxes share their finished games through an MQTT broker; a club server
re-checks them with the rules engines, keeps them in SQLite or PostgreSQL and rates the
players (docs/club.md).

* ``names``    the broker's address, a box's name, the topics (the contract of both sides)
* ``outbox``   the box's finished games waiting in ``DATA/club/`` until the club answered
* ``box``      the box's side: one sync, and the background link that never delays a frame
* ``results``  what the club keeps of a record: players, scores, winners (through the registry)
* ``ratings``  OpenSkill (Plackett-Luce) ratings, derived from the games in their order
* ``store``    the games and ratings in SQLite or PostgreSQL
* ``server``   the club server: the broker's messages in, acknowledgements out
* ``pages``    the club's web pages and JSON
* ``trust``    ``add-box``: the broker's password-file line and the box's ``[club]`` section

Nothing here names a game: a game's parts come through the registry.
"""
