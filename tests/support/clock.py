"""A clock the test moves by hand: pass it wherever the code takes a `Clock`."""

from app.rooms.clock import FakeClock, settle

__all__ = ["FakeClock", "settle"]
