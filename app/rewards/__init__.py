"""The single-player layer's pure building blocks: solo options, points, daily streaks,
badges and assistance (rescue, auto-complete).

Pure like :mod:`app.engine`: the standard library, the engine and scoring only; no I/O.
The services that store solo games, leaderboards and badges build on it
(docs/solo-and-daily.md).
"""
