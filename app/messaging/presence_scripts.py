"""The shared presence registry's Redis side: its keys and the Lua scripts that change them.

Under the deployment's prefix:

- ``presence:procs``: a sorted set, process id → its last heartbeat (Redis server time);
- ``presence:proc:{proc}``: a hash, player id → that process's connections of the player;
- ``presence:player:{id}``: a hash, process id → connections (the same numbers, by player);
- ``presence:version``: a counter, one step per change of anybody's global presence.

Every change runs as one script, so a check and its write are atomic across processes,
and the script itself publishes the change of the *global* state on ``presence:{id}``
and on :data:`CHANGES`. What the registry promises is said in app/messaging/redis_presence.py
(``SharedPresence``, the only user of these scripts).
"""

CHANGES = "presence-changes"
"""The pub/sub channel every process's local view follows (player_id, online, v)."""

_COMMON = """
local prefix = ARGV[1]
local ttl = tonumber(ARGV[2])
local procs = prefix .. 'presence:procs'
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) + tonumber(t[2]) / 1000000
end
local function total(pid, floor)
  local fields = redis.call('HGETALL', prefix .. 'presence:player:' .. pid)
  local sum = 0
  for i = 1, #fields, 2 do
    local beat = redis.call('ZSCORE', procs, fields[i])
    if beat and tonumber(beat) >= floor then sum = sum + tonumber(fields[i + 1]) end
  end
  return sum
end
local function announce(pid, online)
  local v = redis.call('INCR', prefix .. 'presence:version')
  local flag = online and 'true' or 'false'
  redis.call('PUBLISH', prefix .. 'presence:' .. pid,
    '{"type":"presence","player_id":' .. pid .. ',"online":' .. flag .. '}')
  redis.call('PUBLISH', prefix .. 'presence-changes',
    '{"player_id":' .. pid .. ',"online":' .. flag .. ',"v":' .. v .. '}')
  return v
end
"""

# ARGV: prefix, ttl, proc, player, delta (+1 / -1), limit (0: none).
# Returns {connections anywhere after, version of the announced change or 0};
# {-1, n} when the cap refuses.
CHANGE = _COMMON + """
local proc, pid = ARGV[3], ARGV[4]
local delta, limit = tonumber(ARGV[5]), tonumber(ARGV[6])
local floor = now() - ttl
local before = total(pid, floor)
if delta > 0 and limit > 0 and before >= limit then return {-1, before} end
local pkey = prefix .. 'presence:player:' .. pid
local qkey = prefix .. 'presence:proc:' .. proc
if redis.call('HINCRBY', pkey, proc, delta) <= 0 then redis.call('HDEL', pkey, proc) end
if redis.call('HINCRBY', qkey, pid, delta) <= 0 then redis.call('HDEL', qkey, pid) end
local after = total(pid, floor)
local v = 0
if before == 0 and after > 0 then v = announce(pid, true)
elseif before > 0 and after == 0 then v = announce(pid, false) end
return {after, v}
"""

# ARGV: prefix, ttl, proc. 1 = heartbeat recorded; 0 = this process was stale or reaped:
# it must rewrite its numbers (sync) before it counts again.
BEAT = _COMMON + """
local t = now()
local beat = redis.call('ZSCORE', procs, ARGV[3])
if beat and tonumber(beat) >= t - ttl then
  redis.call('ZADD', procs, t, ARGV[3])
  return 1
end
return 0
"""

# ARGV: prefix, ttl, proc, then player, connections, player, connections, ...
# Rewrites this process's numbers from its own counts and records a heartbeat.
SYNC = _COMMON + """
local proc = ARGV[3]
local t = now()
local floor = t - ttl
local qkey = prefix .. 'presence:proc:' .. proc
local wanted, affected, before = {}, {}, {}
for i = 4, #ARGV, 2 do wanted[ARGV[i]] = tonumber(ARGV[i + 1]) end
for _, pid in ipairs(redis.call('HKEYS', qkey)) do affected[pid] = true end
for pid, _ in pairs(wanted) do affected[pid] = true end
for pid, _ in pairs(affected) do before[pid] = total(pid, floor) end
redis.call('ZADD', procs, t, proc)
redis.call('DEL', qkey)
for pid, _ in pairs(affected) do
  local pkey = prefix .. 'presence:player:' .. pid
  local n = wanted[pid]
  if n and n > 0 then
    redis.call('HSET', pkey, proc, n)
    redis.call('HSET', qkey, pid, n)
  else
    redis.call('HDEL', pkey, proc)
  end
end
for pid, _ in pairs(affected) do
  local after = total(pid, floor)
  if before[pid] == 0 and after > 0 then announce(pid, true)
  elseif before[pid] > 0 and after == 0 then announce(pid, false) end
end
return 1
"""

# ARGV: prefix, ttl[, proc]. Without proc: removes every process whose heartbeat is
# older than ttl; with proc: that one (a process leaving). Announces offline for the
# players left with no connection. Returns how many processes were removed.
REAP = _COMMON + """
local t = now()
local floor = t - ttl
local gone
if ARGV[3] then gone = {ARGV[3]} else
  gone = redis.call('ZRANGEBYSCORE', procs, '-inf', '(' .. floor)
end
local removed = 0
for _, proc in ipairs(gone) do
  local won = redis.call('ZREM', procs, proc) == 1
  if won or ARGV[3] then
    removed = removed + 1
    local qkey = prefix .. 'presence:proc:' .. proc
    local players = redis.call('HKEYS', qkey)
    redis.call('DEL', qkey)
    for _, pid in ipairs(players) do
      redis.call('HDEL', prefix .. 'presence:player:' .. pid, proc)
      if total(pid, floor) == 0 then announce(pid, false) end
    end
  end
end
return removed
"""

# ARGV: prefix, ttl. Returns {version, player, player, ...}: everybody online anywhere.
SNAPSHOT = _COMMON + """
local floor = now() - ttl
local out = {tonumber(redis.call('GET', prefix .. 'presence:version') or '0')}
local seen = {}
for _, proc in ipairs(redis.call('ZRANGEBYSCORE', procs, floor, '+inf')) do
  for _, pid in ipairs(redis.call('HKEYS', prefix .. 'presence:proc:' .. proc)) do
    if not seen[pid] then
      seen[pid] = true
      out[#out + 1] = tonumber(pid)
    end
  end
end
return out
"""
