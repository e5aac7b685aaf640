#!/usr/bin/env bash
# The multi-host test (issue 15): Reelwork on several hosts of one network, with a partition, a
# host added and a host drained mid-run, checked end to end. Run by scripts/test.sh after the build;
# alone: `scripts/multihost-test.sh` after `swift build --build-tests` (root: it makes network
# namespaces). About two minutes (with RW_MULTIHOST_STORAGE=s3 about four).
#
# Hosts are network namespaces on a Linux bridge made for the run (names rwmh-<run id>-*, bridge
# rwmh<run id>, addresses 10.231.N.0/24 assigned here; nothing else is ever a target):
#
#   db     PostgreSQL and Redis (on the host's loopback), reached over the bridge on db:5432 / db:6379
#   coord  the coordinator (HTTP on coord:8080)
#   cli    the client: keys, submit, drain, and every check (psql over the bridge)
#   w1-w3  workers from the start, w4 added mid-run: 3 slots each (more slots than the global cap:
#          the caps, not the slots, bound the run), REELWORK_VIDEO_SOURCE=http, each
#          with its own storage directory, the coordinator's files hidden under an empty tmpfs (a
#          mount namespace of their own) and a hostname of their own (a UTS namespace)
#   s3     with RW_MULTIHOST_STORAGE=s3 only: rclone's S3 server (scripts/setup-s3-server.sh) on
#          s3:9000, bucket `reelwork`; `reelwork submit` on cli sends its uploads' parts there by
#          presigned URLs, and the workers read them there the same way (its folder hidden from
#          them like the coordinator's)
#
# Clocks: w3's clock runs an hour behind and w4's an hour ahead (Debian's libfaketime, preloaded
# into the worker process: FAKETIME=-1h / +1h; a time namespace cannot do it, it shifts only the
# monotonic and boot clocks). Leases are 8 s, so a worker that measured its lease by its own clock
# would have every job reaped while it runs (behind) or hold a lease an hour after it died (ahead).
#
# Latency: `tc qdisc ... netem` is what the issue asks for, but this machine's kernel has no netem
# (nor fq; no modules can be loaded), so a userspace delay proxy stands in
# (tools/multihost/delay_proxy.py, stdlib Python): on the db and coord hosts, PostgreSQL, Redis and
# HTTP are served through it, adding 20 ms to each direction (40 ms a round trip) to everything
# that crosses the bridge. Its hops are TCP's own (the kernel's retransmissions on the bridge are
# untouched), so a cut link behaves like a cut link. Every test host caps TCP's retransmission
# backoff at 1 s (net.ipv4.tcp_rto_max_ms, Linux 6.15+), so connections resume within a second of a
# link coming back instead of at the next exponential retransmission, several seconds later, and
# allows 60 retransmissions (net.ipv4.tcp_retries2), so a partition of up to a minute ends no
# connection.
#
# The run: club mh-a submits a batch of 40 clips (diagnostic noop jobs of 10 s, so the timing is
# known), club mh-b a batch of 4 short tennis clips (real probe, decode and inference, the video
# streamed from the coordinator over HTTP). Caps: global 6, per club 5; lease 8 s, heartbeat 4 s.
#   1. w1's link is cut (its bridge port disabled: a partition, nothing is killed) while it runs
#      noop jobs mid-way;
#   2. w4 is added;
#   3. w1's leases expire, the reaper requeues its jobs as stalls, other workers start them again;
#   4. the link comes back (once all of w1's leases have expired and one of its jobs runs elsewhere,
#      and late enough that w1's lease keeper is stuck on the dead link rather than told): w1's
#      runs, their clips' time long past, go straight on to write their results, which PostgreSQL
#      refuses (fenced by attempt) while the new attempts are still running;
#   5. w2 is drained through the API (POST /v1/workers/w2/drain, via `reelwork workers drain`);
#   6. w4 (clock an hour ahead) is killed with SIGKILL while it runs a job.
# Then it checks, and exits 1 naming every failed check:
#   - every job reached one terminal state (succeeded), with exactly one terminal attempt, one
#     terminal live event (the Redis stream) and one result row, written by the final attempt;
#   - each job w1 lost: stalled in its history, run again by another worker, w1's result write
#     refused (w1's log, watched live; at least one while the newer attempt ran, so that only
#     the attempt fence could refuse it), and the stalled attempt's stage rows untouched since
#     the stall (its late progress writes were refused too);
#   - the caps held: Redis's running counts sampled every 0.1 s on the db host, and the attempts'
#     intervals in PostgreSQL (those that held their lease to the end), never above the caps, and
#     club mh-a's cap reached (so the check means something);
#   - w4 claimed and finished jobs; w2 claimed nothing after the drain, finished or handed back its
#     jobs, and exited 0; the tennis jobs decoded their clips (over HTTP: nothing else could reach them);
#   - with RW_MULTIHOST_STORAGE=s3, after the kill: two more tennis clips are submitted and the S3
#     server stopped; an upload then is refused (503 storage_unavailable, nothing recorded), a
#     worker says `[store unreachable]` and the jobs are handed back (no failure counted), the
#     server comes back and they succeed; a submit during the outage stops at its part saying
#     the store failed, and run again completes the same upload; an upload whose parts are not
#     its declared SHA-256 is refused at completion (422 hash_mismatch, nothing recorded); the
#     coordinator's content route was never asked, it received no byte of the submits (only the
#     upload sent to POST /v1/videos during the outage), and the store's link carried at least
#     every tennis clip's bytes;
#   - with RW_MULTIHOST_STORAGE=s3, then, with the store's link throttled to 2 MB/s each way (tbf)
#     and files of three parts: the S3 server killed (SIGKILL) once it holds a part of an upload
#     and started again (rclone keeps multipart uploads in memory, so it answers NoSuchUpload):
#     submit says so, ends that upload (aborted), starts it over and completes it; the client's path to the store cut
#     (connections reset, new ones refused) once the store holds a part of another, the store
#     keeping its parts: submit sends the cut part again and completes the same upload, and the
#     store's link carries none of the parts it held; the S3 server killed while a worker reads a
#     video (its run's probe stage, which copies it) and started again: that attempt is handed
#     back (no failure counted) and the job succeeds;
#   - one clock: the skewed workers' own clocks were shifted (their live events, stamped by the
#     worker, are an hour off PostgreSQL's start of the same attempt), yet both finished jobs and
#     no attempt of theirs was reaped while it ran (no stall but the killed one's; no job stalled
#     but those of w1 and w4); and the killed w4's leases were reaped a lease after its last beat
#     by Redis's clock, not an hour later (no lease outlives its holder); with s3, both skewed
#     workers sign their store reads on Redis's clock too (the X-Amz-Date of their start line lies
#     within the run: AWS refuses a signature more than 15 minutes off).
# It prints a timeline of what happened, and stops everything it started (processes by PID, the
# namespaces, the bridge) on every exit. Logs stay in the run directory when a check fails.
#
# Settings: RW_MULTIHOST_BIN (default .build/debug/reelwork), RW_MULTIHOST_KEEP=1 keeps the run
# directory, RW_MULTIHOST_DELAY_MS (default 20), RW_MULTIHOST_STORAGE (http, the default: videos in
# the coordinator's folder, read over HTTP; s3: in a bucket on the s3 host). scripts/test.sh runs both.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=lib/services.sh
source scripts/lib/services.sh

BIN=${RW_MULTIHOST_BIN:-$ROOT/.build/debug/reelwork}
DELAY_MS=${RW_MULTIHOST_DELAY_MS:-20}
STORAGE=${RW_MULTIHOST_STORAGE:-http}
[[ $STORAGE == http || $STORAGE == s3 ]] || { echo "multihost: RW_MULTIHOST_STORAGE must be http or s3" >&2; exit 2; }
CLIPS_C=2                  # with s3: tennis clips submitted while the store is down
S3_KEY=multihost-key S3_SECRET=multihost-secret-0123456789
CLIPS_A=40                 # club mh-a's batch: noop jobs of NOOP_SECONDS
declare -A SKEW_OF=([w3]=-1h [w4]=+1h)   # workers whose clocks are off (libfaketime's FAKETIME)
CLIPS_B=4                  # club mh-b's batch: tennis clips
NOOP_SECONDS=10            # long enough that a rerun started during the partition still runs when the link is back
GLOBAL_CAP=6
CLUB_CAP=5
SLOTS=3                    # per worker: more slots than the caps, so a requeued job finds an idle slot at once
LEASE=8
HEARTBEAT=4                # after the heal, w1's lease keeper waits this long before it beats again, while
                           # w1's runs need about a second to write: the margin that makes the write happen
GRACE=3                    # shutdown grace: a drained worker hands back what it cannot finish in 3 s
RUN_TIMEOUT=300

say() { printf 'multihost: %s\n' "$*"; }
die() { printf 'multihost: FAILED: %s\n' "$*" >&2; exit 1; }

(( EUID == 0 )) || die "needs root (it creates network namespaces, a bridge and mounts)"
[[ -x $BIN ]] || die "$BIN not found: build first (swift build --build-tests)"
rw_install_deps
command -v ip >/dev/null && command -v bridge >/dev/null || die "iproute2 (ip, bridge) missing"
command -v unshare >/dev/null || die "unshare (util-linux) missing"
FAKETIME_LIB=$(rw_faketime_lib) || die "libfaketime missing"
scripts/setup-models.sh >/dev/null
[[ $STORAGE == s3 ]] && scripts/setup-s3-server.sh >/dev/null

# ---- run identity, directory, cleanup ---------------------------------------------------------
RID=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n' | cut -c1-5)
NET=10.231.$(( 0x${RID:0:2} % 250 + 2 ))
BR=rwmh$RID
RUN=$(mktemp -d /tmp/rwmh.XXXXXX)
chmod 755 "$RUN"
mkdir -p "$RUN/db" "$RUN/coord/storage" "$RUN/cli/state" "$RUN/logs" "$RUN/pids" "$RUN/s3/reelwork"
START=$(date +%s.%N)
declare -A HOST_IP=([db]=$NET.2 [coord]=$NET.3 [cli]=$NET.4 [s3]=$NET.5 [w1]=$NET.11 [w2]=$NET.12 [w3]=$NET.13 [w4]=$NET.14)
declare -A PID_OF=()     # name -> PID of each long-lived process started here
declare -A WRAPPER_OF=() # name -> PID of the `ip netns exec` that started it (it passes on the exit status)
HOSTS=()
FAILURES=()

ns() { printf 'rwmh-%s-%s' "$RID" "$1"; }
veth() { printf 'rwmh%s%s' "$RID" "${1:0:1}${1: -1}"; }
on() { local host=$1; shift; ip netns exec "$(ns "$host")" "$@"; }
now() { date +%s.%N; }
# Arithmetic on fractional seconds: calc prints EXPR to 0.1, holds is true when EXPR is.
calc() { awk "BEGIN { printf \"%.1f\", $* }"; }
holds() { awk "BEGIN { exit !($*) }"; }
event() { printf '%s|%s\n' "$(now)" "$*" >>"$RUN/timeline"; }
fail() { FAILURES+=("$*"); printf 'multihost: check failed: %s\n' "$*" >&2; }

# Stops PID (a process started here, still named COMM) with SIGTERM, then SIGKILL after SECONDS.
stop_pid() {
    local pid=$1 comm=$2 seconds=$3
    rw__alive "$pid" || return 0
    [[ $(rw__comm "$pid") == "$comm"* ]] || return 0
    kill -TERM "$pid" 2>/dev/null || true
    rw__wait_exit "$pid" "$seconds" || kill -KILL "$pid" 2>/dev/null || true
}

# launch NAME HOST COMMAND...: starts COMMAND on HOST in the background, output in logs/NAME.log.
# `ip netns exec` forks, so $! is ip's PID: the command writes its own before it execs.
launch() {
    local name=$1 host=$2 i
    shift 2
    rm -f "$RUN/pids/$name"   # a relaunch (the S3 server after its outage) must not read the last PID
    on "$host" sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0" && exec "$@"' "$RUN/pids/$name" "$@" >"$RUN/logs/$name.log" 2>&1 &
    WRAPPER_OF[$name]=$!
    for ((i = 0; i < 100; i++)); do
        [[ -s $RUN/pids/$name ]] && break
        sleep 0.1
    done
    PID_OF[$name]=$(cat "$RUN/pids/$name" 2>/dev/null) || die "$name did not start on $host (see $RUN/logs/$name.log)"
}

# Prints the timeline so far, sorted, with times relative to START.
show_timeline() {
    echo
    echo "timeline (t = seconds since the stack started coming up):"
    sort -t'|' -k1,1n "$RUN/timeline" | while IFS='|' read -r t text; do
        printf '  t+%5ss  %s\n' "$(calc "$t - $START")" "$text"
    done
    TIMELINE_SHOWN=1
}
TIMELINE_SHOWN=0

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    set +e
    (( TIMELINE_SHOWN == 1 )) || [[ ! -s $RUN/timeline ]] || show_timeline
    [[ -n ${PID_OF[sampler]:-} ]] && stop_pid "${PID_OF[sampler]}" bash 2
    [[ " ${HOSTS[*]} " == *" w1 "* ]] && heal_link w1 2>/dev/null   # a failure mid-partition: let w1 stop cleanly
    local name
    for name in w1 w2 w3 w4 coord submit-e submit-f; do
        [[ -n ${PID_OF[$name]:-} ]] && stop_pid "${PID_OF[$name]}" reelwork 10
    done
    for name in proxy-coord proxy-db; do
        [[ -n ${PID_OF[$name]:-} ]] && stop_pid "${PID_OF[$name]}" python 5
    done
    [[ -n ${PID_OF[s3]:-} ]] && stop_pid "${PID_OF[s3]}" rclone 5
    rw_stop_redis "$RUN/db/redis" >/dev/null 2>&1
    rw_stop_postgres "$RUN/db/pg" >/dev/null 2>&1
    for name in "${HOSTS[@]}"; do
        ip netns del "$(ns "$name")" 2>/dev/null
    done
    ip link del "$BR" 2>/dev/null
    if (( rc != 0 )) || [[ ${RW_MULTIHOST_KEEP:-0} == 1 ]]; then
        echo "multihost: logs kept in $RUN" >&2
    else
        rm -rf "$RUN"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the network ------------------------------------------------------------------------------
ip link add "$BR" type bridge
ip link set "$BR" up
add_host() {
    local name=$1 n
    n=$(ns "$name")
    ip netns add "$n"
    HOSTS+=("$name")
    ip link add "$(veth "$name")" type veth peer name eth0 netns "$n"
    ip link set "$(veth "$name")" master "$BR" up
    on "$name" ip link set lo up
    on "$name" ip addr add "${HOST_IP[$name]}/24" dev eth0
    on "$name" ip link set eth0 up
    on "$name" sysctl -qw net.ipv4.tcp_retries2=60   # with 1 s apart, a minute before TCP gives up
    if ! on "$name" sysctl -qw net.ipv4.tcp_rto_max_ms=1000 2>/dev/null; then
        [[ $RTO_CAPPED == 0 ]] || say "note: no net.ipv4.tcp_rto_max_ms (Linux < 6.15): connections resume at TCP's own pace after the partition"
        RTO_CAPPED=0
    fi
}
RTO_CAPPED=1
cut_link() { bridge link set dev "$(veth "$1")" state 0; }   # disabled: the bridge drops its frames
heal_link() { bridge link set dev "$(veth "$1")" state 3; }  # forwarding

for h in db coord cli w1 w2 w3; do add_host "$h"; done

# ---- db host: PostgreSQL, Redis, the delay proxy ----------------------------------------------
on db bash -c "source scripts/lib/services.sh && RW_PG_FAST=1 rw_start_postgres '$RUN/db/pg' 5432 reelwork && rw_start_redis '$RUN/db/redis' 6379"
start_proxy() {
    local host=$1; shift
    local maps=() port
    for port in "$@"; do maps+=(--map "${HOST_IP[$host]}:$port=127.0.0.1:$port"); done
    launch "proxy-$host" "$host" python3 tools/multihost/delay_proxy.py --delay-ms "$DELAY_MS" "${maps[@]}"
}
start_proxy db 5432 6379

export REELWORK_DATABASE_URL="postgres://postgres@${HOST_IP[db]}:5432/reelwork"
export REELWORK_REDIS_URL="redis://${HOST_IP[db]}:6379/0"
export REELWORK_COORDINATOR_URL="http://${HOST_IP[coord]}:8080"
export REELWORK_LEASE_SECONDS=$LEASE REELWORK_HEARTBEAT_SECONDS=$HEARTBEAT REELWORK_SHUTDOWN_GRACE_SECONDS=$GRACE
export REELWORK_GLOBAL_CAP=$GLOBAL_CAP REELWORK_CLUB_CAP=$CLUB_CAP
export REELWORK_DIAGNOSTICS=1 REELWORK_INFERENCE_THREADS=1 LOG_LEVEL=info
export XDG_STATE_HOME=$RUN/cli/state
unset REELWORK_API_KEY REELWORK_STORAGE_DIR REELWORK_BIND REELWORK_WORKER_ID REELWORK_VIDEO_SOURCE REELWORK_STORAGE

sql() { on cli psql -X -q -tA -F '|' -v ON_ERROR_STOP=1 "$REELWORK_DATABASE_URL" -c "$1"; }
# The leases worker $1's slots hold in Redis, as job|attempt lines. A claim is in Redis before its
# attempt is in PostgreSQL, and the statement that starts it may still be on the wire (20 ms a hop)
# when the worker is cut off or killed: PostgreSQL's open attempts alone can miss that job.
leases_held_by() {
    local key owner attempt
    on db redis-cli -p 6379 --raw --scan --pattern 'reelwork:lease:*' | while read -r key; do
        { read -r owner; read -r attempt; } < <(on db redis-cli -p 6379 --raw HMGET "$key" owner attempt) || true
        if [[ $owner == "$1/"* ]]; then printf '%s|%s\n' "${key##*:}" "$attempt"; fi
    done
}
reachable() { sql "SELECT 1" >/dev/null 2>&1; }
# Polls COMMAND every 0.2 s until it succeeds; false after SECONDS.
poll() {
    local seconds=$1 deadline
    shift
    deadline=$(( $(date +%s) + seconds ))
    until "$@"; do
        (( $(date +%s) < deadline )) || return 1
        sleep 0.2
    done
}
wait_until() { local seconds=$1 what=$2; shift 2; poll "$seconds" "$@" || die "timed out after ${seconds}s waiting for: $what"; }
wait_until 30 "PostgreSQL through the db host's proxy" reachable

# ---- s3 host (RW_MULTIHOST_STORAGE=s3) ---------------------------------------------------------
# rclone's own directory cache (nothing here changes its folder behind it): with --dir-cache-time 0s
# it re-reads directories in a loop while a copy is written, and each completed upload stalled
# 15-25 s, so a batch of 40 small clips took two minutes to submit.
start_store() {
    launch s3 s3 "$ROOT/.local/s3-server/bin/rclone" serve s3 --auth-key "$S3_KEY,$S3_SECRET" \
        --addr "${HOST_IP[s3]}:9000" "$RUN/s3"
    store_answers() { on cli curl -s -o /dev/null --max-time 2 "http://${HOST_IP[s3]}:9000/"; }
    wait_until 30 "the S3 server on the s3 host" store_answers
}
if [[ $STORAGE == s3 ]]; then
    # rclone emulates S3 over folders and removes a folder that a delete leaves empty. A client's
    # parts written into uploads/ while the last staged upload there is deleted lose that race: the
    # part is refused (HTTP 500, "Dir.Rename error: file does not exist") and rclone's cached listing
    # forgets what is written next, so a completed upload cannot be read back for minutes. Real S3
    # has no folders; a file that is not an upload keeps this one from ever being empty.
    mkdir -p "$RUN/s3/reelwork/uploads"
    : >"$RUN/s3/reelwork/uploads/.kept-by-multihost-test"
    add_host s3
    start_store
    export REELWORK_STORAGE=s3 REELWORK_S3_ENDPOINT="http://${HOST_IP[s3]}:9000" REELWORK_S3_BUCKET=reelwork REELWORK_S3_PATH_STYLE=1
    export AWS_ACCESS_KEY_ID=$S3_KEY AWS_SECRET_ACCESS_KEY=$S3_SECRET
fi

# ---- coordinator host -------------------------------------------------------------------------
on coord "$BIN" migrate --dir "$ROOT/migrations" >"$RUN/logs/migrate.log" 2>&1 || { cat "$RUN/logs/migrate.log" >&2; die "migrate failed"; }
REELWORK_BIND=127.0.0.1:8080 REELWORK_STORAGE_DIR=$RUN/coord/storage launch coord coord "$BIN" coordinator
start_proxy coord 8080
healthy() { on cli curl -fs -o /dev/null --max-time 2 "$REELWORK_COORDINATOR_URL/healthz"; }
wait_until 60 "the coordinator's /healthz from the cli host" healthy

key() { on cli "$BIN" keys create "$@" | tail -n 1; }
OPERATOR_KEY=$(key --operator --label multihost)
WORKER_KEY=$(key --worker --label multihost)
KEY_A=$(key --club mh-a --label multihost)
KEY_B=$(key --club mh-b --label multihost)

# ---- worker hosts -----------------------------------------------------------------------------
start_worker() {
    local name=$1 skew=()
    mkdir -p "$RUN/$name/storage"
    # A clock off by SKEW_OF[name] for the worker process alone (its wall clock; the monotonic clock
    # is left alone, as a host with a wrong clock has it).
    [[ -n ${SKEW_OF[$name]:-} ]] &&
        skew=(env FAKETIME="${SKEW_OF[$name]}" FAKETIME_DONT_FAKE_MONOTONIC=1 LD_PRELOAD="$FAKETIME_LIB")
    # Its own mount and UTS namespaces: the coordinator's directory (and the S3 server's) is an
    # empty read-only tmpfs here, and the worker reports its own host name.
    REELWORK_API_KEY=$WORKER_KEY REELWORK_VIDEO_SOURCE=http REELWORK_STORAGE_DIR=$RUN/$name/storage REELWORK_WORKER_SLOTS=$SLOTS \
        launch "$name" "$name" unshare --mount --uts --propagation private sh -c \
        'hostname "$1" && mount -t tmpfs -o size=64k,mode=0555 rwmh-hidden "$2" && mount -t tmpfs -o size=64k,mode=0555 rwmh-hidden "$3" && shift 3 && exec "$@"' \
        sh "rwmh-$name" "$RUN/coord" "$RUN/s3" "${skew[@]}" "$BIN" worker --worker-id "$name"
}
worker_listed() { on cli env REELWORK_API_KEY="$OPERATOR_KEY" "$BIN" workers list --format json | grep -q "\"id\" *: *\"$1\""; }
for w in w1 w2 w3; do start_worker "$w"; done
for w in w1 w2 w3; do wait_until 90 "worker $w to register" worker_listed "$w"; done
event "stack up: PostgreSQL + Redis on db, coordinator on coord, workers w1 w2 w3 ($SLOTS slots each; w3's clock ${SKEW_OF[w3]}); +${DELAY_MS} ms each way on every hop through the bridge"

# ---- clips, batches ---------------------------------------------------------------------------
# Distinct clips (different frames, so different content hashes), each file one segment.
mkdir -p "$RUN/clips-a" "$RUN/clips-b"
ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i "testsrc2=size=160x120:rate=10" -t "$CLIPS_A" \
    -c:v libx264 -pix_fmt yuv420p -g 10 -f segment -segment_time 1 -reset_timestamps 1 "$RUN/clips-a/a-%02d.mp4"
ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i "testsrc=size=320x240:rate=15" -t $(( CLIPS_B * 2 )) \
    -c:v libx264 -pix_fmt yuv420p -g 15 -f segment -segment_time 2 -reset_timestamps 1 "$RUN/clips-b/b-%02d.mp4"
(( $(ls "$RUN/clips-a" | wc -l) == CLIPS_A && $(ls "$RUN/clips-b" | wc -l) == CLIPS_B )) || die "ffmpeg made the wrong number of clips"
printf '{"noop": {"seconds": %s}}\n' "$NOOP_SECONDS" >"$RUN/noop.json"

# The Redis sampler on the db host: the running counts the caps are checked against, every 0.1 s.
launch sampler db bash -c '
    while [[ ! -e $1/sampler.stop ]]; do
        printf "%s %s\n" "$(date +%s.%N)" "$(redis-cli -p 6379 --raw EVAL "return {redis.call(\"ZCARD\", ARGV[1] .. \":running\"), unpack(redis.call(\"HGETALL\", ARGV[1] .. \":club_running\"))}" 0 reelwork | tr "\n" " ")"
        sleep 0.1
    done >"$1/samples"' sampler "$RUN"

submit() {   # KEY DIR LABEL [options file] ; prints job ids
    local key=$1 dir=$2 label=$3
    shift 3
    on cli env REELWORK_API_KEY="$key" "$BIN" submit "$dir" --recursive --sport tennis --label "$label" "$@" 2>>"$RUN/logs/submit.log"
}
# Why a submit failed: what it said of each file (each retry too) and the coordinator's last
# errors, for the failure message (CI keeps no logs).
submit_trouble() {
    { grep -E 'failed|again|waiting|Error' "$RUN/logs/submit.log" | tail -n 8
      grep -E 'error|warning' "$RUN/logs/coord.log" | tail -n 4; } | tr '\n' ' '
}
submit "$KEY_A" "$RUN/clips-a" "multihost mh-a" --options "$RUN/noop.json" >"$RUN/jobs-a" ||
    die "reelwork submit for club mh-a failed: $(submit_trouble)"
event "club mh-a submitted a batch of $(wc -l <"$RUN/jobs-a") clips (noop, ${NOOP_SECONDS} s each)"
submit "$KEY_B" "$RUN/clips-b" "multihost mh-b" >"$RUN/jobs-b" ||
    die "reelwork submit for club mh-b failed: $(submit_trouble)"
event "club mh-b submitted a batch of $(wc -l <"$RUN/jobs-b") tennis clips (real decode, the video read $([[ $STORAGE == s3 ]] && echo "from the bucket" || echo "over HTTP from the coordinator"))"
cat "$RUN/jobs-a" "$RUN/jobs-b" >"$RUN/jobs"
TOTAL=$(wc -l <"$RUN/jobs")
(( TOTAL == CLIPS_A + CLIPS_B )) || die "submitted $TOTAL jobs, expected $(( CLIPS_A + CLIPS_B ))"

# ---- 1. partition w1 mid-job ------------------------------------------------------------------
# Only while everything w1 runs is a noop job well inside its run: its progress written (between
# 10% and 70%, so the stage is under way and not about to write its result when the link goes).
w1_mid_job() {
    [[ $(sql "SELECT count(*) > 0 AND bool_and(j.club = 'mh-a' AND coalesce(s.progress BETWEEN 0.1 AND 0.7, false))
              FROM jobs j LEFT JOIN job_stages s ON s.job_id = j.id AND s.attempt = j.attempt AND s.name = 'noop' AND s.status = 'running'
              WHERE j.status = 'running' AND j.worker_id LIKE 'w1/%'") == t ]]
}
wait_until 90 "w1 to be in the middle of a noop job" w1_mid_job
keeper_failures() { grep -c "heartbeat to Redis failed" "$RUN/logs/w1.log" || true; }
KEEPER_FAILURES_AT_CUT=$(keeper_failures)
cut_link w1
T_CUT=$(now)
# Each job w1 holds, and whether it was mid-noop (its progress written) or claimed in the instant
# between that check and the cut (its run then starts only once the link is back).
sql "SELECT j.id, j.attempt, coalesce(s.progress >= 0.1, false) FROM jobs j
     LEFT JOIN job_stages s ON s.job_id = j.id AND s.attempt = j.attempt AND s.name = 'noop'
     WHERE j.status = 'running' AND j.worker_id LIKE 'w1/%'" >"$RUN/w1-at-cut"
leases_held_by w1 >"$RUN/w1-leases-at-cut"
event "CUT w1's link (bridge port disabled) while it ran $(wc -l <"$RUN/w1-at-cut") job(s): $(awk -F'|' '{ printf "%s%s ", substr($1, 1, 8), ($3 == "t" ? "" : " (just claimed)") }' "$RUN/w1-at-cut")"

# ---- 2. add w4 --------------------------------------------------------------------------------
add_host w4
start_worker w4
wait_until 90 "worker w4 to register" worker_listed w4
event "ADDED host w4 (worker w4, $SLOTS slots, its clock ${SKEW_OF[w4]})"

# ---- 3. leases expire, the jobs run elsewhere -------------------------------------------------
# Every job w1 held: stalled (the reaper requeued it, and PostgreSQL has the stall), and at least
# one that was mid-run started again by another worker (others may wait their turn under the caps).
at_cut_sql=$(awk -F'|' '{ printf "%s('\''%s'\''::uuid, %s)", (NR > 1 ? "," : ""), $1, $2 }' "$RUN/w1-at-cut")
mid_at_cut_sql=$(awk -F'|' '$3 == "t" { printf "%s('\''%s'\''::uuid, %s)", (n++ ? "," : ""), $1, $2 }' "$RUN/w1-at-cut")
stalled_and_rerun() {
    [[ $(sql "SELECT count(*) FILTER (WHERE outcome = 'stalled') = $(wc -l <"$RUN/w1-at-cut") FROM job_attempts
              WHERE (job_id, attempt) IN ($at_cut_sql)") == t &&
       $(sql "SELECT count(*) FROM jobs j JOIN (VALUES $mid_at_cut_sql) AS c(id, attempt) ON j.id = c.id
              WHERE j.attempt > c.attempt AND j.worker_id NOT LIKE 'w1/%'") -ge 1 ]]
}
wait_until 60 "w1's leases to expire and a job of it to start again on another worker" stalled_and_rerun
# The stalled attempts' stage rows, to compare at the end: w1's late progress writes must not change them.
stale_stages_sql="SELECT job_id, attempt, name, status, progress, frames_done, finished_at FROM job_stages
                  WHERE (job_id, attempt) IN ($at_cut_sql) ORDER BY 1, 2, 3"
sql "$stale_stages_sql" >"$RUN/stale-stages-before"

# ---- 4. heal ----------------------------------------------------------------------------------
# Not before w1's lease keeper waits in its PostgreSQL heartbeat on the dead link, so that it cannot
# tell w1's runs that their leases are gone before they try to write their results: once it has
# given up on Redis (a 5 s timeout; it says so in its log), or, if the cut caught it in the
# PostgreSQL heartbeat already, once a whole beat and a Redis timeout have passed.
keeper_stuck() { (( $(keeper_failures) > KEEPER_FAILURES_AT_CUT )) || holds "$(now) > $T_CUT + $HEARTBEAT + 6"; }
wait_until 30 "w1's lease keeper to wait on the dead link" keeper_stuck
heal_link w1
T_HEAL=$(now)
event "HEALED w1's link ($(calc "$T_HEAL - $T_CUT") s after the cut)"
# Watch w1's log for how each of its runs ended: its result write refused, or (a run that only
# started after the heal, or without the RTO cap) told by its lease keeper first.
refusals_seen() {
    local id attempt mid lines
    while IFS='|' read -r id attempt mid; do
        [[ -e $RUN/refused-$id || -e $RUN/told-$id ]] && continue
        lines=$(grep -i "job=$id" "$RUN/logs/w1.log" || true)
        if grep -q "its result was refused" <<<"$lines"; then
            now >"$RUN/refused-$id"
            event "w1's late result write for job ${id:0:8} (attempt $attempt) REFUSED by PostgreSQL (fenced: the job is at a newer attempt)"
        elif grep -q "this run's work is discarded" <<<"$lines"; then
            touch "$RUN/told-$id"
            event "w1's run of job ${id:0:8} (attempt $attempt) told by its heartbeat that the lease was lost; it wrote no result"
        else
            return 1
        fi
    done <"$RUN/w1-at-cut"
}
poll 30 refusals_seen || true   # checked below, job by job

# ---- 5. drain w2 through the API --------------------------------------------------------------
w2_busy() { [[ $(sql "SELECT count(*) FROM jobs WHERE status = 'running' AND worker_id LIKE 'w2/%'") -ge 1 ]]; }
wait_until 60 "w2 to be running a job" w2_busy
T_DRAIN=$(now)
on cli env REELWORK_API_KEY="$OPERATOR_KEY" "$BIN" workers drain w2 --yes >"$RUN/logs/drain.out" 2>&1 || { cat "$RUN/logs/drain.out" >&2; die "reelwork workers drain w2 failed"; }
event "DRAIN w2 requested through the API (it was running $(sql "SELECT count(*) FROM jobs WHERE status = 'running' AND worker_id LIKE 'w2/%'") job(s))"
W2_RC=
w2_exited() { ! rw__alive "${PID_OF[w2]}"; }
wait_until $(( GRACE + HEARTBEAT + 20 )) "w2 to exit after the drain" w2_exited
if wait "${WRAPPER_OF[w2]}"; then W2_RC=0; else W2_RC=$?; fi
PID_OF[w2]=
event "w2 exited with status $W2_RC"

# ---- 6. kill w4, whose clock runs an hour ahead ------------------------------------------------
# Once it has finished a job and runs another: SIGKILL, so nothing hands its jobs back. Its leases
# must end a lease after its last heartbeat, by Redis's clock; had it stamped them with its own,
# they would outlive it by an hour.
w4_finished_and_busy() {
    [[ $(sql "SELECT (SELECT count(*) FROM job_attempts WHERE worker_id LIKE 'w4/%' AND outcome = 'succeeded') >= 1
                 AND (SELECT count(*) FROM jobs WHERE status = 'running' AND worker_id LIKE 'w4/%') >= 1") == t ]]
}
wait_until 90 "w4 to have finished a job and to be running another" w4_finished_and_busy
kill -KILL "${PID_OF[w4]}"
T_KILL=$(now)
PID_OF[w4]=
# The attempts it held: those still open once it is dead (one it finished in the instant before is not).
w4_dead() { ! rw__alive "$(cat "$RUN/pids/w4")"; }
wait_until 10 "w4 to die" w4_dead
sql "SELECT job_id, attempt FROM job_attempts WHERE worker_id LIKE 'w4/%' AND outcome IS NULL" >"$RUN/w4-at-kill"
leases_held_by w4 >"$RUN/w4-leases-at-kill"
[[ -s $RUN/w4-at-kill ]] || die "w4 held no open attempt when it was killed"
at_kill_sql=$(awk -F'|' '{ printf "%s('\''%s'\''::uuid, %s)", (NR > 1 ? "," : ""), $1, $2 }' "$RUN/w4-at-kill")
event "KILLED w4 (SIGKILL; clock ${SKEW_OF[w4]}) while it ran $(wc -l <"$RUN/w4-at-kill") job(s): $(cut -c1-8 "$RUN/w4-at-kill" | tr '\n' ' ')"
w4_reaped() {
    [[ $(sql "SELECT count(*) FILTER (WHERE outcome = 'stalled') = count(*) FROM job_attempts WHERE (job_id, attempt) IN ($at_kill_sql)") == t ]]
}
wait_until $(( LEASE * 4 )) "the killed w4's leases to be reaped" w4_reaped
REAPED_AFTER=$(sql "SELECT round(extract(epoch FROM max(finished_at)) - $T_KILL, 1) FROM job_attempts WHERE (job_id, attempt) IN ($at_kill_sql)")
event "reaper: the killed w4's $(wc -l <"$RUN/w4-at-kill") lease(s) expired and were reaped ${REAPED_AFTER} s after the kill (lease ${LEASE} s, heartbeat ${HEARTBEAT} s)"

# ---- 7. (s3) the store goes down and comes back ------------------------------------------------
# While the S3 server is stopped, an upload is refused with the reason (nothing recorded), and two
# tennis jobs submitted before it stopped wait: a worker that claims one cannot read its video,
# says so and hands it back. Then the server comes back and they succeed.
if [[ $STORAGE == s3 ]]; then
    mkdir -p "$RUN/clips-c"
    ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i "testsrc=size=320x240:rate=15,hue=h=90" -t $(( CLIPS_C * 2 )) \
        -c:v libx264 -pix_fmt yuv420p -g 15 -f segment -segment_time 2 -reset_timestamps 1 "$RUN/clips-c/c-%02d.mp4"
    # Club mh-b paused while they are submitted, so that no worker reads them before the store stops.
    queue_club() { on cli env REELWORK_API_KEY="$OPERATOR_KEY" "$BIN" queue "$1" --club mh-b >>"$RUN/logs/queue.out" 2>&1 || die "queue $1 --club mh-b failed"; }
    queue_club pause
    submit "$KEY_B" "$RUN/clips-c" "multihost outage" >"$RUN/jobs-c" ||
        die "reelwork submit of the outage's clips failed: $(submit_trouble)"
    (( $(wc -l <"$RUN/jobs-c") == CLIPS_C )) || die "submitted $(wc -l <"$RUN/jobs-c") outage jobs, expected $CLIPS_C"
    stop_pid "${PID_OF[s3]}" rclone 5
    PID_OF[s3]=
    T_STORE_DOWN=$(now)
    event "STOPPED the S3 server on the s3 host, with $CLIPS_C tennis jobs submitted"
    videos_before=$(sql "SELECT count(*) FROM videos")
    refused=$(on cli curl -s -o "$RUN/refused-upload.json" -w '%{http_code}' --max-time 60 -X POST -T "$RUN/clips-a/a-00.mp4" \
        -H "Authorization: Bearer $KEY_A" -H "X-Filename: during-outage.mp4" "$REELWORK_COORDINATOR_URL/v1/videos?club=mh-a" || true)
    [[ $refused == 503 ]] && grep -q storage_unavailable "$RUN/refused-upload.json" ||
        fail "an upload while the store was down was answered $refused: $(head -c 300 "$RUN/refused-upload.json")"
    (( $(sql "SELECT count(*) FROM videos") == videos_before )) || fail "an upload the store refused was recorded"
    # An upload in parts goes to the store itself: with it down, submit says so and gives up on the
    # file (its upload stays open in the journal and in PostgreSQL); run again once the store is
    # back, it resumes that same upload.
    mkdir -p "$RUN/clips-d"
    ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i "testsrc=size=320x240:rate=15,hue=h=200" -t 2 \
        -c:v libx264 -pix_fmt yuv420p "$RUN/clips-d/d-00.mp4"
    if submit "$KEY_B" "$RUN/clips-d" "multihost during the outage" >"$RUN/jobs-d"; then
        fail "a submit while the store was down succeeded"
    fi
    grep -q "d-00.mp4: failed: upload to part 1 to the store failed" "$RUN/logs/submit.log" ||
        fail "the submit during the outage did not say the store failed: $(grep d-00 "$RUN/logs/submit.log" | tail -n 1)"
    OUTAGE_UPLOAD=$(sql "SELECT id FROM uploads WHERE original_name = 'd-00.mp4'")
    [[ $(sql "SELECT count(*) || ' ' || string_agg(status, ',') FROM uploads WHERE original_name = 'd-00.mp4'") == "1 open" ]] ||
        fail "the submit during the outage left not one open upload: $(sql "SELECT string_agg(id::text || ' ' || status, ', ') FROM uploads WHERE original_name = 'd-00.mp4'")"
    event "a submit during the outage stopped at its part, saying the store failed; its upload ${OUTAGE_UPLOAD:0:8} stays open"
    queue_club resume
    store_named() { grep -l "\\[store unreachable\\] cannot reach the object store at http://${HOST_IP[s3]}:9000" "$RUN"/logs/w[1-4].log >/dev/null 2>&1; }
    wait_until 90 "a worker to say it cannot reach the store" store_named
    event "a worker logged: $(grep -h -m1 -o '\[store unreachable\][^(]*' "$RUN"/logs/w[1-4].log | head -n 1)"
    start_store
    event "STARTED the S3 server again ($(calc "$(now) - $T_STORE_DOWN") s after it stopped)"
    cat "$RUN/jobs-c" >>"$RUN/jobs"
    TOTAL=$(( TOTAL + CLIPS_C ))
    submit "$KEY_B" "$RUN/clips-d" "multihost during the outage" >"$RUN/jobs-d" ||
        die "the submit cut off by the outage failed again: $(submit_trouble)"
    [[ $(sql "SELECT string_agg(id::text || ' ' || status, ', ') FROM uploads WHERE original_name = 'd-00.mp4'") == "$OUTAGE_UPLOAD completed" ]] ||
        fail "the submit run again did not complete the same upload: $(sql "SELECT string_agg(id::text || ' ' || status, ', ') FROM uploads WHERE original_name = 'd-00.mp4'")"
    event "the same submit, run again, completed upload ${OUTAGE_UPLOAD:0:8}"
    cat "$RUN/jobs-d" >>"$RUN/jobs"
    TOTAL=$(( TOTAL + 1 ))

    # Parts that are not the declared bytes: refused at completion, nothing recorded.
    api() { on cli curl -s -H "Authorization: Bearer $KEY_B" -H 'Content-Type: application/json' "$@"; }
    size=$(stat -c %s "$RUN/clips-d/d-00.mp4")
    forged=$(api -X POST -d "{\"sizeBytes\": $size, \"sha256\": \"$(printf '0%.0s' {1..64})\", \"filename\": \"forged.mp4\"}" \
                 "$REELWORK_COORDINATOR_URL/v1/uploads" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])') ||
        die "could not start the forged upload"
    part_url=$(api -X POST -d '{"numbers": [1]}' "$REELWORK_COORDINATOR_URL/v1/uploads/$forged/parts" |
                   python3 -c 'import json, sys; print(json.load(sys.stdin)["parts"][0]["url"])') || die "no part URL for the forged upload"
    on cli curl -s -f -o /dev/null -T "$RUN/clips-d/d-00.mp4" "$part_url" || fail "the store did not take the forged upload's part"
    videos_before=$(sql "SELECT count(*) FROM videos")
    answer=$(api -o "$RUN/forged.json" -w '%{http_code}' -X POST "$REELWORK_COORDINATOR_URL/v1/uploads/$forged/complete")
    [[ $answer == 422 ]] && grep -q hash_mismatch "$RUN/forged.json" ||
        fail "an upload whose bytes do not match its declared hash was answered $answer: $(head -c 300 "$RUN/forged.json")"
    [[ $(sql "SELECT status FROM uploads WHERE id = '$forged'") == rejected ]] || fail "the forged upload is not rejected"
    (( $(sql "SELECT count(*) FROM videos") == videos_before )) || fail "the forged upload was recorded as a video"
    event "an upload whose parts do not match its declared SHA-256 was refused at completion (422 hash_mismatch), nothing recorded"
fi

# ---- 8. (s3) the store fails mid-upload and mid-read --------------------------------------------
# Files of three parts (8 + 8 + ~4 MiB: random frames, so they do not compress), sent and read at
# 2 MB/s (a token bucket on the store's link each way: tbf, which this kernel has), so that an
# upload or a read is still under way a part or a few seconds after it began.
#   a. the S3 server is killed (SIGKILL) once the store holds a part of e-00.mp4's upload, and
#      started again: rclone keeps multipart uploads in memory, so the restarted store answers the
#      upload's next part with NoSuchUpload; submit says so, ends that upload (aborted), starts a
#      new one and completes it;
#   b. f-00.mp4's upload loses the store (the client's connections to it reset, new ones refused)
#      once the store holds a part, the store keeping its state (as AWS S3 and MinIO do through any
#      outage): submit sends the cut part again and completes the same upload, and the store's link
#      carries no part the store already held;
#   c. the S3 server is killed while a worker reads e-00.mp4 (its run's probe stage, which copies
#      the video locally), and started again: the worker says the store is unreachable and hands
#      the job back (no attempt counted), and the job succeeds once the store is back.
if [[ $STORAGE == s3 ]]; then
    mkdir -p "$RUN/clips-e" "$RUN/clips-f"
    for f in e f; do
        ffmpeg -nostdin -hide_banner -loglevel error -f rawvideo -pix_fmt gray -s 640x360 -r 25 -i /dev/urandom -frames:v 60 \
            -c:v libx264 -preset ultrafast -qp 0 -pix_fmt yuv420p "$RUN/clips-$f/$f-00.mp4"
        size=$(stat -c %s "$RUN/clips-$f/$f-00.mp4")
        (( size > 17 << 20 && size < 24 << 20 )) || die "$f-00.mp4 has $size bytes, not the two parts and a bit the test needs"
    done
    printf '{"noop": {"seconds": 1, "probe": true}}\n' >"$RUN/probe.json"
    throttle() { tc qdisc replace dev "$1" root tbf rate 16mbit burst 64kb latency 2s; }
    throttle "$(veth s3)"   # what the bridge sends the s3 host: the parts
    club_queue() { on cli env REELWORK_API_KEY="$OPERATOR_KEY" "$BIN" queue "$1" --club "$2" >>"$RUN/logs/queue.out" 2>&1 || die "queue $1 --club $2 failed"; }
    club_queue pause mh-a   # no worker reads the files before (c)
    # Starts `reelwork submit` of clips-$1 in the background (its output in logs/submit-$1.log).
    submit_bg() {
        REELWORK_API_KEY=$KEY_A launch "submit-$1" cli "$BIN" submit "$RUN/clips-$1" --recursive --sport tennis \
            --label "multihost mid-upload $1" --options "$RUN/probe.json"
    }
    upload_of() { sql "SELECT id FROM uploads WHERE original_name = '$1' ORDER BY created_at LIMIT 1"; }
    parts_held() {   # parts the store holds of upload $1, as the coordinator sees them
        on cli curl -sS --max-time 20 -H "Authorization: Bearer $KEY_A" "$REELWORK_COORDINATOR_URL/v1/uploads/$1" 2>>"$RUN/logs/parts-held.log" |
            tee -a "$RUN/logs/parts-held.log" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["partsReceived"]))' 2>>"$RUN/logs/parts-held.log" || echo 0
    }
    # Mid-upload: the store's link has carried more than a part since the submit started (read on
    # this machine: asking the coordinator would queue behind the parts on the throttled link).
    carried_to_s3() { cat "/sys/class/net/$(veth s3)/statistics/tx_bytes"; }
    mid_upload() { (( $(carried_to_s3) - SENT_BEFORE > 9 << 20 )); }
    declare -A JOB_OF=()
    submit_done() {   # SUBMIT NAME: waits for its exit; the job it made joins the run's
        local rc=0
        wait "${WRAPPER_OF[submit-$1]}" || rc=$?
        PID_OF[submit-$1]=
        (( rc == 0 )) || { fail "the submit of $1-00.mp4 failed ($rc): $(tail -n 4 "$RUN/logs/submit-$1.log" | tr '\n' ' ')"; return 1; }
        JOB_OF[$1]=$(grep -E '^[0-9a-f-]{36}$' "$RUN/logs/submit-$1.log")
        [[ $(wc -w <<<"${JOB_OF[$1]}") == 1 ]] || die "the submit of $1-00.mp4 printed not one job: $(tail -n 4 "$RUN/logs/submit-$1.log" | tr '\n' ' ')"
        echo "${JOB_OF[$1]}" >>"$RUN/jobs"
        TOTAL=$(( TOTAL + 1 ))
    }

    # a. killed mid-upload
    SENT_BEFORE=$(carried_to_s3)
    submit_bg e
    wait_until 60 "the store's link to carry a part of e-00.mp4" mid_upload
    kill -KILL "${PID_OF[s3]}"
    PID_OF[s3]=
    FIRST_E=$(upload_of e-00.mp4)
    event "KILLED the S3 server (SIGKILL) $(( ($(carried_to_s3) - SENT_BEFORE) >> 20 )) MiB into upload ${FIRST_E:0:8} (e-00.mp4, 3 parts)"
    start_store
    event "STARTED the S3 server again: it no longer knows the upload"
    submit_done e && {
        grep -q "e-00.mp4: .*NoSuchUpload.*starting its upload again" "$RUN/logs/submit-e.log" ||
            fail "submit did not say the store lost e-00.mp4's upload and start it over: $(grep e-00 "$RUN/logs/submit-e.log" | tr '\n' ' ')"
        # The lost upload is ended (not left open, counting against the club, until the sweep), a new one completed.
        uploads_e=$(sql "SELECT string_agg(CASE WHEN id = '$FIRST_E' THEN 'first ' ELSE 'new ' END || status, ', ' ORDER BY created_at) FROM uploads WHERE original_name = 'e-00.mp4'")
        [[ $uploads_e == "first aborted, new completed" ]] ||
            fail "e-00.mp4's uploads after the store lost the first: '$uploads_e', not 'first aborted, new completed'"
        event "submit: the store answered NoSuchUpload; it ended upload ${FIRST_E:0:8}, started e-00.mp4's over and completed it"
    }

    # b. cut off mid-upload, the store keeping its parts
    SENT_BEFORE=$(carried_to_s3)
    submit_bg f
    wait_until 60 "the store's link to carry a part of f-00.mp4" mid_upload
    on cli ip route add prohibit "${HOST_IP[s3]}/32"     # new connections refused at once
    on cli ss -K dst "${HOST_IP[s3]}" dport = 9000 >/dev/null   # and the part on its way cut
    UPLOAD_F=$(upload_of f-00.mp4)
    held_f=$(parts_held "$UPLOAD_F")   # the coordinator still reaches the store
    (( held_f >= 1 )) || fail "the store held no part of f-00.mp4 when the client was cut off"
    event "CUT the client off the store with $held_f part(s) of upload ${UPLOAD_F:0:8} (f-00.mp4) held"
    retrying() { grep -q "f-00.mp4: .*sending it again" "$RUN/logs/submit-f.log"; }
    wait_until 30 "submit to retry f-00.mp4's part" retrying
    carried_before=$(cat "/sys/class/net/$(veth s3)/statistics/tx_bytes")
    on cli ip route del prohibit "${HOST_IP[s3]}/32"
    event "RESTORED the client's path to the store"
    if submit_done f; then
        carried=$(( $(cat "/sys/class/net/$(veth s3)/statistics/tx_bytes") - carried_before ))
        size=$(stat -c %s "$RUN/clips-f/f-00.mp4")
        # What was still to send: the parts after the held ones (the cut one included). A held part
        # sent again would add 8 MiB; the slack is for HTTP and TCP (a few percent).
        left=$(( size - held_f * (8 << 20) ))
        (( carried < left + (2 << 20) )) ||
            fail "the store's link carried $carried bytes after f-00.mp4's outage, more than the $left bytes of parts it did not hold: a part it held was sent again"
        [[ $(sql "SELECT string_agg(id::text || ' ' || status, ', ') FROM uploads WHERE original_name = 'f-00.mp4'") == "$UPLOAD_F completed" ]] ||
            fail "f-00.mp4's upload was not completed as the same upload: $(sql "SELECT string_agg(left(id::text, 8) || ' ' || status, ', ') FROM uploads WHERE original_name = 'f-00.mp4'")"
        ! grep -q "f-00.mp4: .*starting its upload again" "$RUN/logs/submit-f.log" || fail "submit started f-00.mp4's upload over though the store kept its parts"
        event "submit resumed upload ${UPLOAD_F:0:8} after the outage: the store's link carried $carried bytes, the $left of the parts it did not hold"
    fi
    tc qdisc del dev "$(veth s3)" root

    # c. killed mid-read
    JOB_E=${JOB_OF[e]:-}
    [[ -n $JOB_E ]] || die "no job of e-00.mp4 to read"
    on s3 tc qdisc replace dev eth0 root tbf rate 16mbit burst 64kb latency 2s   # what the store sends: the reads
    club_queue resume mh-a
    reading() { [[ $(sql "SELECT count(*) FROM jobs j JOIN job_stages s ON s.job_id = j.id AND s.attempt = j.attempt
                          WHERE j.id = '$JOB_E' AND j.status = 'running' AND s.name = 'probe' AND s.status = 'running'") == 1 ]]; }
    wait_until 60 "a worker to be reading e-00.mp4 (its job's probe stage running)" reading
    READ_ATTEMPT=$(sql "SELECT attempt || ' on ' || worker_id FROM jobs WHERE id = '$JOB_E'")
    kill -KILL "${PID_OF[s3]}"
    PID_OF[s3]=
    event "KILLED the S3 server (SIGKILL) while job ${JOB_E:0:8} attempt $READ_ATTEMPT read e-00.mp4"
    read_ended() { [[ $(sql "SELECT count(*) FROM job_attempts WHERE job_id = '$JOB_E' AND attempt = ${READ_ATTEMPT%% *} AND outcome IS NOT NULL") == 1 ]]; }
    wait_until 60 "the attempt cut off mid-read to end" read_ended
    event "job ${JOB_E:0:8} attempt ${READ_ATTEMPT%% *} ended: $(sql "SELECT outcome || coalesce(' (' || error_kind || ')', '') FROM job_attempts WHERE job_id = '$JOB_E' AND attempt = ${READ_ATTEMPT%% *}")"
    on s3 tc qdisc del dev eth0 root 2>/dev/null || true   # the restarted server serves at full speed
    start_store
    event "STARTED the S3 server again"
fi

# ---- the end of the run -----------------------------------------------------------------------
all_terminal() { [[ $(sql "SELECT count(*) FROM jobs WHERE status IN ('succeeded', 'failed', 'cancelled')") == "$TOTAL" ]]; }
wait_until "$RUN_TIMEOUT" "all $TOTAL jobs to reach a terminal state" all_terminal
touch "$RUN/sampler.stop"
event "all $TOTAL jobs terminal"

# ---- checks -----------------------------------------------------------------------------------
# Every job: terminal once, succeeded, one result written by its final attempt.
bad=$(sql "SELECT j.id || ' ' || j.status || ' attempt ' || j.attempt || ' result attempt ' || coalesce(r.attempt::text, 'none')
                  || ' terminal attempts ' || (SELECT count(*) FROM job_attempts a WHERE a.job_id = j.id AND a.outcome IN ('succeeded', 'failed', 'cancelled'))
           FROM jobs j LEFT JOIN results r ON r.job_id = j.id
           WHERE j.status <> 'succeeded' OR r.attempt IS DISTINCT FROM j.attempt
              OR (SELECT count(*) FROM job_attempts a WHERE a.job_id = j.id AND a.outcome IN ('succeeded', 'failed', 'cancelled')) <> 1
              OR (SELECT outcome FROM job_attempts a WHERE a.job_id = j.id AND a.attempt = j.attempt) IS DISTINCT FROM 'succeeded'")
[[ -z $bad ]] || fail "jobs not ended exactly once by their final attempt: $bad"
counts=$(sql "SELECT (SELECT count(*) FROM jobs), (SELECT count(*) FROM jobs WHERE status = 'succeeded'), (SELECT count(*) FROM results)")
[[ $counts == "$TOTAL|$TOTAL|$TOTAL" ]] || fail "jobs|succeeded|results = $counts, expected $TOTAL each"
# One terminal live event per job, on the Redis stream.
events=$(on db redis-cli -p 6379 --raw XRANGE reelwork:events - + | python3 -c '
import collections, json, sys
terminal = collections.Counter()
for line in sys.stdin:
    if line.startswith("{"):
        e = json.loads(line)
        if e.get("type") in ("job.succeeded", "job.failed", "job.cancelled"):
            terminal[e["jobId"].lower()] += 1
jobs = [line.strip().lower() for line in open(sys.argv[1]) if line.strip()]
print(" ".join(f"{j[:8]}:{terminal[j]}" for j in jobs if terminal[j] != 1))' "$RUN/jobs")
[[ -z $events ]] || fail "jobs without exactly one terminal event (job:count): $events"

# The partition: each job w1 lost was stalled, run again elsewhere, and w1's late writes refused.
STALE=$(sql "SELECT count(*) FROM job_attempts WHERE worker_id LIKE 'w1/%' AND outcome = 'stalled'")
(( STALE >= 1 )) || fail "no attempt of w1 ended as a stall: the partition did not cost w1 its leases"
IN_RUN=0
while IFS='|' read -r id attempt mid; do
    row=$(sql "SELECT a.outcome, j.attempt, coalesce(r.attempt, 0)
               FROM job_attempts a JOIN jobs j ON j.id = a.job_id LEFT JOIN results r ON r.job_id = j.id
               WHERE a.job_id = '$id' AND a.attempt = $attempt")
    IFS='|' read -r outcome final result_attempt <<<"$row"
    [[ -n $row ]] || { fail "job $id: no record of w1's attempt $attempt"; continue; }
    [[ $outcome == stalled ]] || fail "job $id: w1's attempt $attempt ended '$outcome', not 'stalled'"
    (( final > attempt && result_attempt == final )) || fail "job $id: final attempt $final, result of attempt $result_attempt (w1's was $attempt)"
    if [[ -e $RUN/told-$id ]]; then
        # Expected of a run claimed in the instant before the cut (it starts after the heal, and its
        # heartbeat comes first), or where TCP's backoff is not capped.
        [[ $mid != t && $RTO_CAPPED == 1 ]] ||
            fail "job $id: w1's lease keeper told the run its lease was lost before it wrote its result (it won the race after the heal), so no late result write was tested"
    elif [[ ! -e $RUN/refused-$id ]]; then
        fail "job $id: w1's log shows neither its late result write refused nor its run told of the lost lease"
    else
        # A newer attempt already running before the heal and still running when the refusal was seen:
        # the job was 'running' then, so only the attempt fence could refuse the write.
        running_then=$(sql "SELECT string_agg(attempt || ' on ' || worker_id, ', ') FROM job_attempts
                            WHERE job_id = '$id' AND attempt > $attempt AND started_at < to_timestamp($T_HEAL)
                              AND coalesce(finished_at, 'infinity') > to_timestamp($(cat "$RUN/refused-$id"))")
        if [[ -n $running_then ]]; then
            IN_RUN=$(( IN_RUN + 1 ))
        else
            say "job $id: no newer attempt was running when w1's write was refused (it came before one started or after it ended), so the job's status refused it as well"
        fi
    fi
done <"$RUN/w1-at-cut"
(( IN_RUN >= 1 )) || fail "no late write of w1 reached PostgreSQL while a newer attempt of its job was running: the attempt fence was not tested"
sql "$stale_stages_sql" >"$RUN/stale-stages-after"
cmp -s "$RUN/stale-stages-before" "$RUN/stale-stages-after" ||
    fail "the stalled attempts' stage rows changed after the stall (late progress writes were not fenced): $(diff "$RUN/stale-stages-before" "$RUN/stale-stages-after" | tr '\n' ' ')"

# The caps: Redis's counts throughout, and the attempts that held their lease to the end.
read -r redis_global redis_club < <(python3 -c '
import sys
g = c = 0
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) >= 2:
        g = max(g, int(parts[1]))
        c = max([c] + [int(v) for v in parts[3::2]])
print(g, c)' "$RUN/samples")
SAMPLES=$(wc -l <"$RUN/samples")
(( SAMPLES >= 100 )) || fail "only $SAMPLES samples of Redis's running counts"
(( redis_global <= GLOBAL_CAP )) || fail "Redis ran $redis_global jobs at once, over the global cap $GLOBAL_CAP"
(( redis_club <= CLUB_CAP )) || fail "Redis ran $redis_club jobs of one club at once, over the club cap $CLUB_CAP"
overlap="WITH a AS (SELECT j.club, x.started_at AS s, x.finished_at AS f FROM job_attempts x JOIN jobs j ON j.id = x.job_id
                    WHERE x.outcome IN ('succeeded', 'failed', 'retry', 'handed_back', 'cancelled')),
              ev AS (SELECT club, s AS t, 1 AS d FROM a UNION ALL SELECT club, f, -1 FROM a)"
pg_global=$(sql "$overlap SELECT max(n) FROM (SELECT sum(d) OVER (ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS n FROM ev) x")
pg_club_a=$(sql "$overlap SELECT max(n) FROM (SELECT sum(d) OVER (ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS n FROM ev WHERE club = 'mh-a') x")
pg_club_b=$(sql "$overlap SELECT max(n) FROM (SELECT sum(d) OVER (ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS n FROM ev WHERE club = 'mh-b') x")
(( pg_global <= GLOBAL_CAP )) || fail "PostgreSQL's attempts overlap $pg_global at once, over the global cap $GLOBAL_CAP"
(( pg_club_a <= CLUB_CAP && pg_club_b <= CLUB_CAP )) || fail "PostgreSQL's attempts of one club overlap mh-a $pg_club_a / mh-b $pg_club_b, over the club cap $CLUB_CAP"
(( pg_club_a >= CLUB_CAP )) || fail "club mh-a never reached its cap ($pg_club_a of $CLUB_CAP at once): the cap check proves nothing"

# The added host and the drained one.
w4_jobs=$(sql "SELECT count(*) FROM job_attempts WHERE worker_id LIKE 'w4/%' AND outcome = 'succeeded'")
(( w4_jobs >= 1 )) || fail "w4 (added mid-run) finished no job"
[[ $W2_RC == 0 ]] || fail "w2 exited with status $W2_RC after the drain, not 0"
grep -q "asked worker w2 to drain" "$RUN/logs/w2.log" || fail "w2's log does not show the drain request"
late=$(sql "SELECT count(*) FROM job_attempts WHERE worker_id LIKE 'w2/%' AND started_at > to_timestamp($T_DRAIN + $HEARTBEAT + 1)")
(( late == 0 )) || fail "w2 started $late job(s) after it was drained"
w2_bad=$(sql "SELECT count(*) FROM job_attempts WHERE worker_id LIKE 'w2/%' AND outcome IS DISTINCT FROM 'succeeded' AND outcome IS DISTINCT FROM 'handed_back'")
(( w2_bad == 0 )) || fail "$w2_bad of w2's attempts ended other than succeeded or handed back"
IFS='|' read -r w2_done w2_back <<<"$(sql "SELECT count(*) FILTER (WHERE outcome = 'succeeded'), count(*) FILTER (WHERE outcome = 'handed_back') FROM job_attempts WHERE worker_id LIKE 'w2/%'")"

# One clock. The skew reached the workers (their own stamps, on the live events they publish, are
# off PostgreSQL's start of the same attempt by their shift), and still: both finished jobs, no
# attempt of theirs but the killed w4's stalled, no job stalled but w1's and w4's, and w4's leases
# ended a lease after its last beat (between LEASE - HEARTBEAT and LEASE + the reaper's second +
# the proxies' delays after the kill), not an hour later.
on db redis-cli -p 6379 --raw XRANGE reelwork:events - + | grep '^{' >"$RUN/events.json" || true
sql "SELECT job_id, attempt, split_part(worker_id, '/', 1), extract(epoch FROM started_at) FROM job_attempts" >"$RUN/attempts"
skews=$(python3 -c '
import datetime, json, statistics, sys
started = {}
for line in open(sys.argv[2]):
    job, attempt, worker, at = line.strip().split("|")
    started[(job, int(attempt))] = (worker, float(at))
offsets = {}
for line in open(sys.argv[1]):
    e = json.loads(line)
    key = (e["jobId"].lower(), e.get("attempt") or 0)
    if e.get("type") == "job.running" and key in started:
        worker, at = started[key]
        stamped = datetime.datetime.fromisoformat(e["time"].replace("Z", "+00:00")).timestamp()
        offsets.setdefault(worker, []).append(stamped - at)
print(" ".join(f"{w}={statistics.median(v):.0f}" for w, v in sorted(offsets.items())))' "$RUN/events.json" "$RUN/attempts")
skew_of() { sed -n "s/.*\b$1=\(-\?[0-9]*\).*/\1/p" <<<"$skews"; }
for w in w3 w4; do
    want=$(( ${SKEW_OF[$w]:0:1}1 * 3600 ))
    got=$(skew_of "$w")
    [[ -n $got ]] && (( got > want - 60 && got < want + 60 )) ||
        fail "$w's own clock was not ${SKEW_OF[$w]} (its events' stamps are off PostgreSQL's by '${got:-nothing}' s): libfaketime did not reach it, so the skew was not tested"
    done_by=$(sql "SELECT count(*) FROM job_attempts WHERE worker_id LIKE '$w/%' AND outcome = 'succeeded'")
    (( done_by >= 1 )) || fail "$w (clock ${SKEW_OF[$w]}) finished no job"
    # Its presigned reads are dated by Redis's clock, not its own (AWS refuses more than 15 minutes
    # of skew; rclone accepts any, and logs a request's URL only when it refuses it, so the worker's
    # start line, which signs a read with the store it runs jobs with, is what shows the date).
    if [[ $STORAGE == s3 ]]; then
        signed=$(sed -n "s/.*signed on Redis's clock: X-Amz-Date \([0-9]\{8\}T[0-9]\{6\}Z\).*/\1/p" "$RUN/logs/$w.log" | head -n 1)
        signed_at=${signed:+$(date -u -d "${signed:0:4}-${signed:4:2}-${signed:6:2} ${signed:9:2}:${signed:11:2}:${signed:13:2}" +%s)}
        [[ -n $signed_at ]] && holds "$signed_at >= $START - 5 && $signed_at <= $(now) + 5" ||
            fail "$w (clock ${SKEW_OF[$w]}) signed its store reads at X-Amz-Date '${signed:-none}', not on Redis's clock (the run started at $(date -u -d "@${START%.*}" +%Y%m%dT%H%M%SZ))"
    fi
done
got=$(skew_of w1)
[[ -n $got ]] && (( got > -60 && got < 60 )) || fail "w1's events are off PostgreSQL's clock by '${got:-nothing}' s: the comparison itself is off"
# What the kill caught: w4's open attempts in PostgreSQL, and its leases in Redis (a claim whose
# attempt reached PostgreSQL only after the kill).
killed_sql=$(sort -u "$RUN/w4-at-kill" "$RUN/w4-leases-at-kill" | awk -F'|' '{ printf "%s('\''%s'\''::uuid, %s)", (NR > 1 ? "," : ""), $1, $2 }')
reaped_running=$(sql "SELECT string_agg(left(job_id::text, 8) || ' attempt ' || attempt || ' on ' || worker_id, ', ') FROM job_attempts
                      WHERE outcome = 'stalled' AND split_part(worker_id, '/', 1) IN ('w3', 'w4') AND (job_id, attempt) NOT IN ($killed_sql)")
[[ -z $reaped_running ]] || fail "attempts of a skewed worker reaped while it ran them: $reaped_running"
# Jobs the partition or the kill touched: w1's and w4's attempts in PostgreSQL, and their leases in
# Redis at that moment (a claim whose attempt reached PostgreSQL only later).
touched_sql=$(cut -d'|' -f1 "$RUN/w1-at-cut" "$RUN/w1-leases-at-cut" "$RUN/w4-at-kill" "$RUN/w4-leases-at-kill" | sort -u | awk '{ printf "%s'\''%s'\''::uuid", (NR > 1 ? "," : ""), $1 }')
other_stalls=$(sql "SELECT string_agg(left(j.id::text, 8) || ' (' || j.stalls || ' stall(s); attempts: ' ||
                           (SELECT string_agg(a.attempt || ' on ' || a.worker_id || ' ' || coalesce(a.outcome, 'open') || ' t+' ||
                                              round(extract(epoch FROM a.started_at) - $START, 1) || '..' ||
                                              coalesce(round(extract(epoch FROM a.finished_at) - $START, 1)::text, ''), '; ' ORDER BY a.attempt)
                            FROM job_attempts a WHERE a.job_id = j.id) || ')', ', ')
                    FROM jobs j WHERE j.stalls > 0 AND j.id NOT IN ($touched_sql)")
[[ -z $other_stalls ]] || fail "jobs stalled that neither the partition nor the kill touched: $other_stalls"
holds "$REAPED_AFTER >= $LEASE - $HEARTBEAT - 1" || fail "the killed w4's leases were reaped ${REAPED_AFTER} s after the kill: before a lease after its last beat"
holds "$REAPED_AFTER <= $LEASE + 3" || fail "the killed w4's leases were reaped ${REAPED_AFTER} s after the kill: they outlived it by more than a lease"

# The tennis clips were decoded, from the coordinator over HTTP or from the bucket (the workers
# could not see either's files).
TENNIS=$(sql "SELECT count(*) FROM jobs WHERE club = 'mh-b'")
decoded=$(sql "SELECT count(*) FROM results r JOIN jobs j ON j.id = r.job_id WHERE j.club = 'mh-b' AND (r.result->>'framesDecoded')::int > 0")
(( decoded == TENNIS )) || fail "$decoded of $TENNIS tennis jobs have decoded frames"
# A worker keeps only its runs' local copies (copies/), each removed when its run ends; the killed
# w4 may have left the one it was reading.
for w in w1 w2 w3 w4; do
    kept=$(cd "$RUN/$w/storage" && find . -type f ! -path "./copies/*" | head -n 3)
    [[ -z $kept ]] || fail "worker $w stored files of its own ($kept): videos should be read, not stored"
    [[ $w == w4 || -z $(ls -A "$RUN/$w/storage/copies" 2>/dev/null) ]] || fail "worker $w left local copies behind: $(ls "$RUN/$w/storage/copies")"
done
if [[ $STORAGE == s3 ]]; then
    # Never asked for video bytes: its own request metrics have no content route.
    content=$(on cli curl -fsS -H "Authorization: Bearer $OPERATOR_KEY" "$REELWORK_COORDINATOR_URL/metrics" | grep -c '^reelwork_http_request_duration_seconds_count{.*content' || true)
    (( content == 0 )) || fail "the coordinator served video content $content time(s): workers should read the bucket"
    # The store's link (the s3 host's side of its veth: what it sent) carried every tennis clip.
    sent=$(cat "/sys/class/net/$(veth s3)/statistics/rx_bytes")
    clips=$(cat "$RUN"/clips-b/*.mp4 "$RUN"/clips-c/*.mp4 | wc -c)
    (( sent >= clips )) || fail "the s3 host sent $sent bytes, less than the $clips bytes of the tennis clips"
    # The jobs that waited out the outage: handed back, never failed or retried.
    outage_sql=$(awk '{ printf "%s'\''%s'\''", (NR > 1 ? "," : ""), $1 }' "$RUN/jobs-c")
    counted=$(sql "SELECT count(*) FROM job_attempts WHERE job_id IN ($outage_sql) AND outcome NOT IN ('handed_back', 'succeeded')")
    failures=$(sql "SELECT coalesce(sum(failures), 0) FROM jobs WHERE id IN ($outage_sql)")
    (( counted == 0 && failures == 0 )) || fail "the store's outage cost its jobs attempts: $counted attempt(s) neither handed back nor succeeded, $failures failure(s)"
    grep -q "\[store recovered\]" "$RUN"/logs/w[1-4].log || fail "no worker logged that the store works again"
    # The read the store's death cut (8c): handed back, no attempt counted, then succeeded.
    cut=$(sql "SELECT outcome FROM job_attempts WHERE job_id = '$JOB_E' AND attempt = ${READ_ATTEMPT%% *}")
    [[ $cut == handed_back ]] || fail "the attempt of job ${JOB_E:0:8} whose read the store's death cut ended '$cut', not handed back"
    [[ $(sql "SELECT status || ' ' || failures FROM jobs WHERE id = '$JOB_E'") == "succeeded 0" ]] ||
        fail "job ${JOB_E:0:8}, cut off mid-read, ended $(sql "SELECT status || ' with ' || failures || ' failure(s)' FROM jobs WHERE id = '$JOB_E'"), not succeeded with none"
    # No client byte of the submits reached the coordinator (their parts went to the bucket): it
    # received only the one upload sent to POST /v1/videos during the outage.
    received=$(on cli curl -fsS -H "Authorization: Bearer $OPERATOR_KEY" "$REELWORK_COORDINATOR_URL/metrics" | awk '/^reelwork_upload_bytes_total/ { print $2 }')
    outage_upload=$(stat -c %s "$RUN/clips-a/a-00.mp4")
    [[ -n $received ]] && holds "$received <= $outage_upload" ||
        fail "the coordinator received ${received:-no count of} upload bytes; only the $outage_upload of the upload sent to it during the outage were expected"
    event "s3: the store sent $sent bytes for $clips bytes of tennis clips; the coordinator's content route asked $content time(s); it received ${received:-?} upload bytes (the $outage_upload-byte upload sent to it during the outage), none of the submits'"
fi

# ---- timeline ---------------------------------------------------------------------------------
sql "SELECT extract(epoch FROM a.finished_at) || '|' || 'reaper: job ' || left(a.job_id::text, 8) || ' attempt ' || a.attempt
            || ' of w1 stalled (lease expired), requeued first in line'
     FROM job_attempts a WHERE a.worker_id LIKE 'w1/%' AND a.outcome = 'stalled'
     UNION ALL
     SELECT extract(epoch FROM n.started_at) || '|' || 'job ' || left(n.job_id::text, 8) || ' attempt ' || n.attempt || ' started on ' || n.worker_id
            || ' (' || coalesce(n.outcome, '?') || ' at t+' || round(extract(epoch FROM n.finished_at) - $START, 1) || 's)'
     FROM job_attempts n JOIN job_attempts a ON a.job_id = n.job_id AND a.attempt < n.attempt
     WHERE a.worker_id LIKE 'w1/%' AND a.outcome = 'stalled'
     UNION ALL
     SELECT extract(epoch FROM min(started_at)) || '|w4 claimed its first job' FROM job_attempts WHERE worker_id LIKE 'w4/%' HAVING count(*) > 0
     UNION ALL
     SELECT extract(epoch FROM finished_at) || '|w2 handed back job ' || left(job_id::text, 8) || ' (drained)'
     FROM job_attempts WHERE worker_id LIKE 'w2/%' AND outcome = 'handed_back'
     UNION ALL
     SELECT extract(epoch FROM min(started_at)) || '|first job started' FROM job_attempts" >>"$RUN/timeline"
show_timeline
printf '  caps: global %s (max at once: Redis %s, PostgreSQL %s), per club %s (max: Redis %s, PostgreSQL mh-a %s, mh-b %s); %s Redis samples\n' \
    "$GLOBAL_CAP" "$redis_global" "$pg_global" "$CLUB_CAP" "$redis_club" "$pg_club_a" "$pg_club_b" "$SAMPLES"
printf '  attempts per worker: %s\n' "$(sql "SELECT string_agg(w || ' ' || n, ', ' ORDER BY w) FROM (SELECT split_part(worker_id, '/', 1) AS w, count(*) AS n FROM job_attempts GROUP BY 1) x")"
printf '  w2 after the drain: %s finished, %s handed back, exit status %s; w4: %s jobs succeeded\n' "$w2_done" "$w2_back" "$W2_RC" "$w4_jobs"
printf '  clocks (worker=median seconds its own stamps are off PostgreSQL'"'"'s): %s; killed w4'"'"'s leases reaped %s s after the kill\n' "$skews" "$REAPED_AFTER"
printf '  wall time %s s\n' "$(calc "$(now) - $START")"

if (( ${#FAILURES[@]} > 0 )); then
    echo
    for f in "${FAILURES[@]}"; do echo "multihost: FAILED: $f" >&2; done
    for w in coord w1 w2 w3 w4; do
        echo "--- last lines of $w's log ---" >&2
        tail -n 15 "$RUN/logs/$w.log" >&2 || true
    done
    exit 1
fi
echo "multihost: all checks passed ($TOTAL jobs; $STALE stalled by the partition, $IN_RUN late result write(s) refused while a newer attempt ran; caps held; clocks ${SKEW_OF[w3]} and ${SKEW_OF[w4]} reaped nothing running, the killed one's leases ended ${REAPED_AFTER} s after it)"
