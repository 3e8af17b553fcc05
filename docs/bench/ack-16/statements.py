"""Bare asyncpg, interleaved: the old one-row statement (INSERT + games UPDATE), the new
plain INSERT with the totals, and the old floor (no FK, no unique): tight and paced."""
import asyncio, sys, time, random, datetime as dt
import asyncpg, uvloop
DB = sys.argv[1]; PACE = float(sys.argv[2]); N = int(sys.argv[3])
OLD = """
WITH logged AS (
    INSERT INTO game_actions (game_id, seq, action, at) VALUES ($1, $2, $3::json, $4)
)
UPDATE games SET score = $5, actions_count = $6, time_used_ms = $7 WHERE id = $1
"""
NEW = """
INSERT INTO game_actions (game_id, seq, action, at, score, actions_count, time_used_ms)
VALUES ($1, $2, $3::json, $4, $5, $6, $7)
"""
OLDFLOOR = "INSERT INTO old_floor (game_id, seq, action, at) VALUES ($1, $2, $3, now())"
ACTION = '{"op":"move","from":3,"to":7,"count":2}'
def q(xs, p):
    xs = sorted(xs); return xs[min(len(xs)-1, int(p*len(xs)))]*1e6
async def main():
    c = await asyncpg.connect(f"postgresql://postgres@127.0.0.1/{DB}")
    await c.execute("CREATE TABLE IF NOT EXISTS old_floor (id bigserial PRIMARY KEY, game_id integer NOT NULL, seq integer NOT NULL, action text NOT NULL, at timestamptz NOT NULL)")
    await c.execute("SET session_replication_role = replica")
    await c.execute("INSERT INTO games (id, match_id, player_id, seat, status, score, actions_count, time_used_ms) SELECT g, g, g, 0, 'playing', 0, 0, 0 FROM generate_series(1, 500) g ON CONFLICT DO NOTHING")
    await c.execute("RESET session_replication_role")
    base = (await c.fetchval("SELECT coalesce(max(seq),0) FROM game_actions")) + 1
    seqs = {}
    st = {"old": await c.prepare(OLD), "new": await c.prepare(NEW), "oldfloor": await c.prepare(OLDFLOOR)}
    res = {k: [] for k in st}
    rng = random.Random(1)
    for i in range(N):
        for name in ("old", "new", "oldfloor"):
            g = rng.randint(1, 500); s = seqs.get(g, base); seqs[g] = s + 1
            now = dt.datetime.now(dt.timezone.utc)
            t = time.perf_counter()
            if name == "oldfloor":
                await st[name].fetch(1, i, ACTION)
            else:
                await st[name].fetch(g, s, ACTION, now, 1, 2, 3)
            res[name].append(time.perf_counter() - t)
            if PACE:
                await asyncio.sleep(PACE)
    for name, xs in res.items():
        print(f"pace {PACE*1e3:.1f}ms {name:8s} p50 {q(xs,.5):6.0f} p90 {q(xs,.9):6.0f} p99 {q(xs,.99):6.0f} us")
    await c.close()
uvloop.run(main())
