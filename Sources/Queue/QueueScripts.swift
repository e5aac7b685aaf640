import ReelworkCore

/// The queue's state changes, each one atomic Redis Lua script.
///
/// Keys (P = the queue prefix; one Redis instance, so scripts build keys from P):
/// - `P:job:<id>`            hash: club, priority, attempt (last claimed), stalls — present while Redis holds the job
/// - `P:ready:<club>:<prio>` list of ids; new ids LPUSH, claims RPOP, handed-back ids RPUSH (next in line)
/// - `P:clubs` / `P:clubs:set` round-robin ring of clubs with ready work, and its membership set
/// - `P:ready_since:<club>`  zset id → when the ready job became claimable (ms, Redis's clock): the
///                           oldest claimable job's wait, for autoscaling on latency
/// - `P:running`             zset id → lease deadline (ms, Redis's clock); `P:lease:<id>` hash: owner, attempt, club
/// - `P:club_running`        hash club → running count (the per-club cap)
/// - `P:delayed`             zset id → due time (ms, Redis's clock) of a scheduled retry
/// - `P:cancel`              set of running ids an operator cancelled
/// - `P:done:<id>`           the attempt that ended a job Redis forgot (done, failed past its stalls,
///                           cancelled), kept for a lease: a heartbeat of that run still in flight must
///                           not take the job back as if Redis had lost it
/// - `P:stall_reports`       hash `<id>:<attempt>` → `<verdict>:<stalls>`: each expired lease the reaper
///                           decided, until PostgreSQL has recorded it (so a failure between the two
///                           stores delays the record, never loses it)
/// - `P:wake`                list of wake-up tokens; idle workers BLPOP it instead of polling
/// - `P:config`              hash: global_cap, club_cap, max_stalls (0 = no cap)
/// - `P:paused`              set of clubs whose queues an operator paused: claims skip them
/// - `P:paused_all`          present while the whole queue is paused: claims return nothing
///                           (both kept in Redis beside the queue, so they outlive a coordinator restart;
///                           running jobs are not touched, they finish as usual)
/// - `P:workers`             zset worker id → last beat (ms, Redis's clock); `P:worker:<id>` hash: host, version,
///                           slots, running, started_ms, beat_ms, draining — written by each worker's
///                           heartbeat, expiring when the worker stops beating
///
/// The states a script takes or decides (a run's outcome, a stall's verdict, a heartbeat's or a
/// cancel's answer) are named by their Swift types (`JobQueue.Outcome.Name`, `StallVerdict`,
/// `JobQueue.HeartbeatVerdict`, `JobQueue.CancelReply`) and interpolated as Lua literals when the
/// script's text is built (`NamedState`), so Lua and Swift cannot disagree on a name.
///
/// Every script starts with a shebang (Redis 7), so Redis decides before it starts whether it may
/// run: when Redis is out of memory (`maxmemory` with `noeviction`), `enqueue` and `claim` are
/// refused whole, never half-run (no new work while memory is short), while the scripts that end
/// or keep work in flight (`allow-oom`: heartbeat, finish, cancel, reap) still run, so running jobs
/// finish and their slots are released.
///
/// One clock: every absolute time here (lease deadlines, due retries, worker beats) is read from
/// Redis's `TIME` inside the script, never passed in by a client. Workers run on hosts whose clocks
/// disagree; a worker whose clock ran an hour ahead would otherwise hold a lease an hour past its
/// death, and one an hour behind would have every job reaped while it runs. Callers pass only
/// durations (lease length, retry delay, time to live). Redis 7 replicates a script's effects, not
/// the script, so reading `TIME` in a script that writes is allowed and replicas get the same values.
enum QueueScripts {
    /// First line of a script Redis refuses to start while it is out of memory.
    static let refusedWhenOutOfMemory = "#!lua\n"
    /// First line of a script that must run even then: it ends or keeps work already in flight.
    static let runsWhenOutOfMemory = "#!lua flags=allow-oom\n"
    /// First line of a script that only reads.
    static let readsOnly = "#!lua flags=no-writes,allow-oom\n"

    /// Shared Lua helpers, prepended to every script.
    static let prelude = """
    local P = ARGV[1]
    local PRIOS = {'high', 'normal', 'low'}
    -- Redis's clock in milliseconds: the only clock any lease, due time or beat is measured by.
    local function now_ms()
      local t = redis.call('TIME')
      return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    end
    local function ready_key(club, prio) return P .. ':ready:' .. club .. ':' .. prio end
    local function wake() redis.call('LPUSH', P .. ':wake', '1'); redis.call('LTRIM', P .. ':wake', 0, 255) end
    local function ring_add(club)
      if redis.call('SADD', P .. ':clubs:set', club) == 1 then redis.call('RPUSH', P .. ':clubs', club) end
    end
    local function ring_drop_if_empty(club)
      for _, prio in ipairs(PRIOS) do
        if redis.call('LLEN', ready_key(club, prio)) > 0 then return end
      end
      redis.call('LREM', P .. ':clubs', 0, club)
      redis.call('SREM', P .. ':clubs:set', club)
    end
    -- Ends a lease: the job is no longer running anywhere. Returns the lease's club and attempt.
    local function release(id)
      local lease = redis.call('HMGET', P .. ':lease:' .. id, 'club', 'attempt')
      redis.call('ZREM', P .. ':running', id)
      redis.call('DEL', P .. ':lease:' .. id)
      if lease[1] then
        if redis.call('HINCRBY', P .. ':club_running', lease[1], -1) <= 0 then
          redis.call('HDEL', P .. ':club_running', lease[1])
        end
      end
      return lease
    end
    local function owns(id, owner, attempt)
      local lease = redis.call('HMGET', P .. ':lease:' .. id, 'owner', 'attempt')
      return lease[1] == owner and lease[2] == attempt
    end
    -- Redis forgets a job whose run `attempt` ended it; a late heartbeat of that run finds this.
    local function bury(id, attempt, ttl_ms)
      redis.call('DEL', P .. ':job:' .. id)
      redis.call('SET', P .. ':done:' .. id, attempt, 'PX', ttl_ms)
    end
    local function push_ready(id, front)
      local job = redis.call('HMGET', P .. ':job:' .. id, 'club', 'priority')
      local club, prio = job[1] or 'default', job[2] or 'normal'
      if front then redis.call('RPUSH', ready_key(club, prio), id) else redis.call('LPUSH', ready_key(club, prio), id) end
      redis.call('ZADD', P .. ':ready_since:' .. club, now_ms(), id)
      ring_add(club)
      wake()
    end

    """

    /// Adds one job, due `delay` ms after `now` (Redis's clock; 0 or less: ready now). Idempotent:
    /// a job Redis already holds (ready, delayed or running) is left as it is. Returns 1 if added.
    static let enqueueOne = """
    local function enqueue_one(id, club, prio, attempt, delay, now)
      if redis.call('EXISTS', P .. ':job:' .. id) == 1 or redis.call('EXISTS', P .. ':lease:' .. id) == 1 then return 0 end
      redis.call('HSET', P .. ':job:' .. id, 'club', club, 'priority', prio, 'attempt', attempt)
      if delay > 0 then
        redis.call('ZADD', P .. ':delayed', now + delay, id)
      else
        push_ready(id, false)
      end
      return 1
    end

    """

    /// ARGV: P, id, club, priority, attempt, delay_ms (0 = ready now).
    static let enqueue = RedisScript(name: "enqueue", source: refusedWhenOutOfMemory + prelude + enqueueOne + """
    return enqueue_one(ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6]), now_ms())
    """)

    /// ARGV: P, then id, club, priority, attempt, delay_ms for each job: many jobs (a batch) in one
    /// call, refused whole when Redis is out of memory. Returns how many were added.
    static let enqueueMany = RedisScript(name: "enqueue_many", source: refusedWhenOutOfMemory + prelude + enqueueOne + """
    local added, now = 0, now_ms()
    for i = 2, #ARGV, 5 do
      added = added + enqueue_one(ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], tonumber(ARGV[i + 4]), now)
    end
    return added
    """)

    /// ARGV: P, owner, lease_ms. Pops the next job round-robin over clubs (highest priority first
    /// within a club), skipping clubs at their cap, and records its lease (deadline: Redis's now +
    /// lease_ms) in the same step.
    /// Returns {id, attempt, club, priority} or nil when nothing is claimable (empty, or caps reached).
    static let claim = RedisScript(name: "claim", source: refusedWhenOutOfMemory + prelude + """
    local owner, lease_ms = ARGV[2], tonumber(ARGV[3])
    local cfg = redis.call('HMGET', P .. ':config', 'global_cap', 'club_cap')
    local global_cap, club_cap = tonumber(cfg[1]) or 0, tonumber(cfg[2]) or 0
    if global_cap > 0 and redis.call('ZCARD', P .. ':running') >= global_cap then return false end
    if redis.call('EXISTS', P .. ':paused_all') == 1 then return false end
    local clubs = redis.call('LLEN', P .. ':clubs')
    for _ = 1, clubs do
      local club = redis.call('LMOVE', P .. ':clubs', P .. ':clubs', 'LEFT', 'RIGHT')
      if not club then return false end
      local running = tonumber(redis.call('HGET', P .. ':club_running', club)) or 0
      -- A paused club stays in the ring (its jobs keep their place) but is passed over.
      if (club_cap == 0 or running < club_cap) and redis.call('SISMEMBER', P .. ':paused', club) == 0 then
        local id, prio = false, nil
        for _, level in ipairs(PRIOS) do
          id = redis.call('RPOP', ready_key(club, level))
          if id then prio = level break end
        end
        ring_drop_if_empty(club)
        if id then
          redis.call('ZREM', P .. ':ready_since:' .. club, id)
          local attempt = redis.call('HINCRBY', P .. ':job:' .. id, 'attempt', 1)
          redis.call('ZADD', P .. ':running', now_ms() + lease_ms, id)
          redis.call('HSET', P .. ':lease:' .. id, 'owner', owner, 'attempt', attempt, 'club', club)
          redis.call('HINCRBY', P .. ':club_running', club, 1)
          return {id, tostring(attempt), club, prio}
        end
      end
    end
    return false
    """)

    /// ARGV: P, id, owner, attempt, lease_ms, club, priority. Extends the lease to Redis's now +
    /// lease_ms. Returns a `JobQueue.HeartbeatVerdict`: ok, cancel (an operator cancelled it), or
    /// lost (another run owns it, or it was reaped). If Redis lost
    /// every trace of the job (flushed), the running owner adopts it again rather than abandon the work
    /// — within the caps: no trace also means another run finished the job after this one's lease
    /// expired, and adopting that would run more jobs than the caps allow (the reconciler re-enqueues
    /// a truly lost job from PostgreSQL). An adopted job keeps the priority it was claimed with.
    static let heartbeat = RedisScript(name: "heartbeat", source: runsWhenOutOfMemory + prelude + """
    local id, owner, attempt, lease_ms, club, prio = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), ARGV[6], ARGV[7]
    local lease = redis.call('HMGET', P .. ':lease:' .. id, 'owner', 'attempt')
    if not lease[1] then
      if redis.call('EXISTS', P .. ':job:' .. id) == 1 then return \(JobQueue.HeartbeatVerdict.lost.lua) end
      -- Ended (by this run or a later one) moments ago, not lost by Redis: nothing to adopt.
      local ended = tonumber(redis.call('GET', P .. ':done:' .. id))
      if ended and ended >= tonumber(attempt) then return \(JobQueue.HeartbeatVerdict.lost.lua) end
      local cfg = redis.call('HMGET', P .. ':config', 'global_cap', 'club_cap')
      local global_cap, club_cap = tonumber(cfg[1]) or 0, tonumber(cfg[2]) or 0
      if global_cap > 0 and redis.call('ZCARD', P .. ':running') >= global_cap then return \(JobQueue.HeartbeatVerdict.lost.lua) end
      if club_cap > 0 and (tonumber(redis.call('HGET', P .. ':club_running', club)) or 0) >= club_cap then return \(JobQueue.HeartbeatVerdict.lost.lua) end
      if prio ~= 'high' and prio ~= 'low' then prio = 'normal' end
      redis.call('HSET', P .. ':job:' .. id, 'club', club, 'priority', prio, 'attempt', attempt)
      redis.call('HSET', P .. ':lease:' .. id, 'owner', owner, 'attempt', attempt, 'club', club)
      redis.call('HINCRBY', P .. ':club_running', club, 1)
    elseif lease[1] ~= owner or lease[2] ~= attempt then
      return \(JobQueue.HeartbeatVerdict.lost.lua)
    end
    redis.call('ZADD', P .. ':running', now_ms() + lease_ms, id)
    if redis.call('SISMEMBER', P .. ':cancel', id) == 1 then return \(JobQueue.HeartbeatVerdict.cancel.lua) end
    return \(JobQueue.HeartbeatVerdict.ok.lua)
    """)

    /// ARGV: P, id, owner, attempt, outcome (a `JobQueue.Outcome.Name`: done, retry, handback, unstarted),
    /// delay_ms, tombstone_ms. Ends the run's lease. done forgets the job (leaving its tombstone for
    /// tombstone_ms); retry schedules it delay_ms from Redis's now; handback puts it first in line; unstarted too, and
    /// gives its attempt number back (the attempt never started). Returns 0 (changing nothing)
    /// if the caller no longer owns the job.
    static let finish = RedisScript(name: "finish", source: runsWhenOutOfMemory + prelude + """
    local id, owner, attempt, outcome, delay, tombstone = ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
    if not owns(id, owner, attempt) then return 0 end
    release(id)
    redis.call('SREM', P .. ':cancel', id)
    if outcome == \(JobQueue.Outcome.Name.retry.lua) then
      redis.call('ZADD', P .. ':delayed', now_ms() + delay, id)
    elseif outcome == \(JobQueue.Outcome.Name.handback.lua) or outcome == \(JobQueue.Outcome.Name.unstarted.lua) then
      if outcome == \(JobQueue.Outcome.Name.unstarted.lua) then redis.call('HINCRBY', P .. ':job:' .. id, 'attempt', -1) end
      push_ready(id, true)
    else
      bury(id, attempt, tombstone)
    end
    wake()
    return 1
    """)

    /// ARGV: P, id. Removes a waiting job (ready or delayed): removed; asks a running one to stop:
    /// signalled; absent if Redis does not hold it (`JobQueue.CancelReply`).
    static let cancel = RedisScript(name: "cancel", source: runsWhenOutOfMemory + prelude + """
    local id = ARGV[2]
    if redis.call('EXISTS', P .. ':lease:' .. id) == 1 then
      redis.call('SADD', P .. ':cancel', id)
      return \(JobQueue.CancelReply.signalled.lua)
    end
    local job = redis.call('HMGET', P .. ':job:' .. id, 'club', 'priority')
    if not job[1] then return \(JobQueue.CancelReply.absent.lua) end
    redis.call('LREM', ready_key(job[1], job[2] or 'normal'), 0, id)
    redis.call('ZREM', P .. ':ready_since:' .. job[1], id)
    ring_drop_if_empty(job[1])
    redis.call('ZREM', P .. ':delayed', id)
    redis.call('DEL', P .. ':job:' .. id)
    return \(JobQueue.CancelReply.removed.lua)
    """)

    /// ARGV: P, batch, max_stalls, tombstone_ms. Leases whose deadline Redis's clock has passed
    /// (expired): the job goes back first in
    /// line (a stall), or, past max_stalls, is forgotten; a cancelled one is forgotten too (both leave
    /// a tombstone), and each verdict waits in `P:stall_reports` until PostgreSQL has it. Then due
    /// retries move to their ready list.
    /// Returns {{id, attempt, verdict (`StallVerdict`), stalls}..., {due ids}}.
    static let reap = RedisScript(name: "reap", source: runsWhenOutOfMemory + prelude + """
    local now, batch, max_stalls, tombstone = now_ms(), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
    local expired = {}
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. ':running', '-inf', now, 'LIMIT', 0, batch)) do
      local lease = release(id)
      local stalls = redis.call('HINCRBY', P .. ':job:' .. id, 'stalls', 1)
      local verdict = \(StallVerdict.requeued.lua)
      if redis.call('SREM', P .. ':cancel', id) == 1 then
        verdict = \(StallVerdict.cancelled.lua)
        bury(id, lease[2] or '0', tombstone)
      elseif stalls > max_stalls then
        verdict = \(StallVerdict.failed.lua)
        bury(id, lease[2] or '0', tombstone)
      else
        push_ready(id, true)
      end
      redis.call('HSET', P .. ':stall_reports', id .. ':' .. (lease[2] or '0'), verdict .. ':' .. stalls)
      table.insert(expired, {id, lease[2] or '0', verdict, tostring(stalls)})
    end
    local due = redis.call('ZRANGEBYSCORE', P .. ':delayed', '-inf', now, 'LIMIT', 0, batch)
    for _, id in ipairs(due) do
      redis.call('ZREM', P .. ':delayed', id)
      push_ready(id, false)
    end
    return {expired, due}
    """)

    /// ARGV: P, name, owner, ttl_ms. Takes the named lock if it is free, or renews it if `owner`
    /// holds it, in one step (a GET then a PEXPIRE could renew a lock another coordinator took in
    /// between). Runs out of memory too: the maintenance it guards is what frees leases.
    /// Returns 1 when `owner` holds the lock now, else 0.
    static let lock = RedisScript(name: "lock", source: runsWhenOutOfMemory + prelude + """
    local key, owner, ttl = P .. ':lock:' .. ARGV[2], ARGV[3], tonumber(ARGV[4])
    if redis.call('SET', key, owner, 'NX', 'PX', ttl) then return 1 end
    if redis.call('GET', key) == owner then
      redis.call('PEXPIRE', key, ttl)
      return 1
    end
    return 0
    """)

    /// ARGV: P. Counts for dashboards, metrics and tests: ready, delayed, running, running per club and
    /// ready per club. O(clubs), never O(jobs): the coordinator's queue gauges run it every few seconds.
    static let stats = RedisScript(name: "stats", source: readsOnly + prelude + """
    local ready, by_club = 0, {}
    for _, club in ipairs(redis.call('LRANGE', P .. ':clubs', 0, -1)) do
      local n = 0
      for _, prio in ipairs(PRIOS) do n = n + redis.call('LLEN', ready_key(club, prio)) end
      ready = ready + n
      table.insert(by_club, club)
      table.insert(by_club, n)
    end
    return {ready, redis.call('ZCARD', P .. ':delayed'), redis.call('ZCARD', P .. ':running'),
            redis.call('HGETALL', P .. ':club_running'), by_club}
    """)

    /// ARGV: P. What a free slot could start now, for autoscaling: nothing while the whole queue
    /// is paused or the global cap is full; else, over clubs not paused and below their cap, each
    /// club's ready jobs up to its free cap slots, all of it up to the global cap's free slots; and
    /// how long the oldest ready job of those clubs has waited (ms, Redis's clock; 0 when none).
    /// Returns {claimable, oldest_wait_ms}. O(clubs).
    static let claimable = RedisScript(name: "claimable", source: readsOnly + prelude + """
    if redis.call('EXISTS', P .. ':paused_all') == 1 then return {0, 0} end
    local cfg = redis.call('HMGET', P .. ':config', 'global_cap', 'club_cap')
    local global_cap, club_cap = tonumber(cfg[1]) or 0, tonumber(cfg[2]) or 0
    local global_free = -1   -- no global cap
    if global_cap > 0 then
      global_free = global_cap - redis.call('ZCARD', P .. ':running')
      if global_free <= 0 then return {0, 0} end
    end
    local count, oldest = 0, nil
    for _, club in ipairs(redis.call('LRANGE', P .. ':clubs', 0, -1)) do
      local free = -1   -- no club cap
      if club_cap > 0 then free = math.max(0, club_cap - (tonumber(redis.call('HGET', P .. ':club_running', club)) or 0)) end
      if free ~= 0 and redis.call('SISMEMBER', P .. ':paused', club) == 0 then
        local ready = 0
        for _, prio in ipairs(PRIOS) do ready = ready + redis.call('LLEN', ready_key(club, prio)) end
        if free > 0 and ready > free then ready = free end
        count = count + ready
        local first = redis.call('ZRANGE', P .. ':ready_since:' .. club, 0, 0, 'WITHSCORES')
        if ready > 0 and first[2] and (not oldest or tonumber(first[2]) < oldest) then oldest = tonumber(first[2]) end
      end
    end
    if global_free > 0 and count > global_free then count = global_free end
    if not oldest then return {count, 0} end
    return {count, math.max(0, now_ms() - oldest)}
    """)

    /// ARGV: P, id, host, version, slots, running, ttl_ms, fresh ('1' on a process's first beat: a
    /// restarted worker with a stable id must not inherit the drain its predecessor obeyed).
    /// Records the worker's presence, stamped by Redis's clock; returns 1 when an operator asked it to drain.
    static let workerBeat = RedisScript(name: "worker_beat", source: runsWhenOutOfMemory + prelude + """
    local id, now, ttl = ARGV[2], now_ms(), tonumber(ARGV[7])
    local key = P .. ':worker:' .. id
    if ARGV[8] == '1' then
      redis.call('DEL', key)
      redis.call('HSET', key, 'started_ms', now)
    end
    redis.call('HSET', key, 'host', ARGV[3], 'version', ARGV[4], 'slots', ARGV[5], 'running', ARGV[6], 'beat_ms', now)
    redis.call('PEXPIRE', key, ttl)
    redis.call('ZADD', P .. ':workers', now, id)
    if redis.call('HGET', key, 'draining') == '1' then return 1 end
    return 0
    """)

    /// ARGV: P, id. Asks a registered worker to drain. Returns 1 (asked now or before), 0 when no
    /// worker with that id is beating.
    static let drainWorker = RedisScript(name: "drain_worker", source: runsWhenOutOfMemory + prelude + """
    local key = P .. ':worker:' .. ARGV[2]
    if redis.call('EXISTS', key) == 0 then return 0 end
    redis.call('HSET', key, 'draining', '1')
    return 1
    """)

    /// ARGV: P. Every registered worker's hash, forgetting ids whose hash expired (workers that
    /// stopped beating). Returns {now_ms, {{id, {field, value, ...}}...}}: Redis's now, so a beat's
    /// age is measured by the clock that stamped it. O(workers).
    static let workers = RedisScript(name: "workers", source: runsWhenOutOfMemory + prelude + """
    local out = {}
    for _, id in ipairs(redis.call('ZRANGE', P .. ':workers', 0, -1)) do
      local fields = redis.call('HGETALL', P .. ':worker:' .. id)
      if #fields == 0 then
        redis.call('ZREM', P .. ':workers', id)
      else
        table.insert(out, {id, fields})
      end
    end
    return {now_ms(), out}
    """)
}
