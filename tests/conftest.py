"""Suite-wide defaults.

Servers started by tests (in process or as subprocesses, which inherit the environment)
run without the background pool of solvable deals: dozens of servers each solving deals
in the background would only add noise to a 2-core machine. The pool's own tests turn
it on explicitly (``deal_pool_size=...``).
"""

import os

os.environ.setdefault("SPIDER_DEAL_POOL_SIZE", "0")
os.environ.setdefault("SPIDER_DEAL_POOL_RATED_SIZE", "0")
# Every server frame is checked against the protocol models (and the fast serializer
# against them): production skips the check for speed.
os.environ.setdefault("SPIDER_WS_VALIDATE_FRAMES", "true")
