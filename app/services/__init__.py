"""SQL-backed domain services: players, tables, invites, results, ratings, deals, SQL store.

Services may import app.rooms (the live layer); app.rooms never imports them.
"""
