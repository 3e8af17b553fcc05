"""SQL-backed domain services: they take a session, read and write rows, commit.

No live state or sockets here (that is ``app.rooms``); no HTTP (that is ``app.api``).
"""
