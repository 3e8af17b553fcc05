"""A clock the test moves by hand: pass it wherever the code takes a `Clock`."""


class FakeClock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
