"""Every listener of the domain events (``app/services/settled.py``), imported in one place.

A listener module subscribes itself when imported; the publishers import this module, so
each listener is subscribed before the first event. A new listener adds its import here.
"""

from app.services import (
    badges,  # noqa: F401  (badges for settled duels and solo games)
    daily,  # noqa: F401  (a won daily's streak cache)
    ratings,  # noqa: F401  (rates a settled rated match)
    tables,  # noqa: F401  (reopens a table left during its match)
)
