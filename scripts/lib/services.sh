# shellcheck shell=bash
# Reelwork service helpers, for tests and the local stack. Source this file:
#
#   . scripts/lib/services.sh
#   port=$(rw_free_port)
#   rw_start_postgres "$PWD/.local/pg" "$port" reelwork
#   ...
#   rw_stop_postgres "$PWD/.local/pg"
#
# Every function explains a failure on stderr and returns non-zero, so callers running under
# `set -euo pipefail` stop at the first problem. Servers are stopped by the PID they recorded,
# never by name, so other servers on the machine are left alone.

# Prints a message on stderr.
rw__err() {
    printf 'services: %s\n' "$*" >&2
}

# True while PID exists and has not exited. A zombie counts as exited: in a container whose
# PID 1 does not reap orphans, a stopped daemon can stay a zombie forever.
rw__alive() {
    local pid=${1:-} stat
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
    stat=${stat##*) }   # the command name in parentheses may contain spaces
    [[ ${stat%% *} != Z ]]
}

# Prints the command name of PID (empty if it is gone).
rw__comm() {
    cat "/proc/${1:-0}/comm" 2>/dev/null || true
}

# Waits up to SECONDS for PID to exit.
rw__wait_exit() {
    local pid=$1 seconds=$2 i
    for ((i = 0; i < seconds * 10; i++)); do
        rw__alive "$pid" || return 0
        sleep 0.1
    done
    ! rw__alive "$pid"
}

# Shows the end of a log on stderr, for start failures.
rw__show_log() {
    local file=$1
    if [[ -s $file ]]; then
        printf -- '--- last lines of %s ---\n' "$file" >&2
        tail -n 30 "$file" >&2
    fi
}

# Checks that PORT is a TCP port number.
rw__check_port() {
    if ! [[ ${1:-} =~ ^[0-9]+$ ]] || (( $1 < 1 || $1 > 65535 )); then
        rw__err "not a TCP port: '${1:-}'"
        return 1
    fi
}

# Creates DIR if needed and prints its absolute, symlink-free path.
rw__make_dir() {
    if ! mkdir -p "$1" || ! (cd "$1" && pwd -P); then
        rw__err "cannot create $1"
        return 1
    fi
}

# Prints a free TCP port on 127.0.0.1 (the kernel picks it; it stays free until someone binds it).
rw_free_port() {
    python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()' || {
        rw__err "could not find a free port (python3 failed)"
        return 1
    }
}

# Prints the directory holding initdb, pg_ctl and postgres: $RW_PG_BINDIR if set, else the
# newest /usr/lib/postgresql/*/bin, else pg_config --bindir.
rw__pg_bindir() {
    local candidates=() dir
    [[ -n ${RW_PG_BINDIR:-} ]] && candidates+=("$RW_PG_BINDIR")
    while IFS= read -r dir; do
        candidates+=("$dir")
    done < <(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V -r)
    if command -v pg_config >/dev/null 2>&1; then
        candidates+=("$(pg_config --bindir)")
    fi
    for dir in "${candidates[@]}"; do
        if [[ -x $dir/initdb && -x $dir/pg_ctl && -x $dir/postgres ]]; then
            printf '%s\n' "$dir"
            return 0
        fi
    done
    rw__err "PostgreSQL server binaries not found (looked in ${candidates[*]:-nothing}); run rw_install_deps"
    return 1
}

# Gives "others" search permission on every parent of DIR that lacks it, so the postgres user
# can reach a data directory inside the project tree. Nothing else about the parents changes.
rw__allow_traverse() {
    local dir=$1 perms
    while [[ $dir != / && -n $dir ]]; do
        dir=$(dirname "$dir")
        perms=$(stat -c %a "$dir") || return 1
        if (( (8#$perms & 1) == 0 )); then
            chmod o+x "$dir" || {
                rw__err "cannot make $dir searchable for the postgres user"
                return 1
            }
        fi
    done
}

# Quotes a value for postgresql.conf.
rw__conf_quote() {
    printf "'%s'" "${1//\'/\'\'}"
}

# rw_start_postgres DIR PORT [DATABASE]
# Starts PostgreSQL with its data in DIR/pgdata (initialised on first use, trust auth, UTF8),
# listening on 127.0.0.1:PORT only, unix socket in DIR, log in DIR/postgres.log, PID in
# DIR/postgres.pid; waits until it accepts connections, then creates DATABASE (default
# reelwork) if missing. RW_PG_FAST=1 turns off fsync, synchronous_commit and full_page_writes
# (tests only: a crash can corrupt the data). RW_PG_EXTRA_CONF adds settings lines. If this DIR's
# server is already running, it is
# reused. PostgreSQL refuses to run as root, so it runs as the postgres user.
rw_start_postgres() {
    local dir=${1:-} port=${2:-} db=${3:-reelwork}
    if [[ -z $dir || -z $port ]]; then
        rw__err "usage: rw_start_postgres DIR PORT [DATABASE]"
        return 2
    fi
    rw__check_port "$port" || return 1
    local bindir
    bindir=$(rw__pg_bindir) || return 1
    dir=$(rw__make_dir "$dir") || return 1
    # The socket path must fit in sockaddr_un (107 bytes).
    if (( ${#dir} + ${#port} + 10 > 107 )); then
        rw__err "$dir is too long a path for PostgreSQL's unix socket; use a shorter DIR"
        return 1
    fi
    if ! chown -R postgres:postgres "$dir" || ! rw__allow_traverse "$dir"; then
        rw__err "cannot give $dir to the postgres user"
        return 1
    fi
    local pgdata=$dir/pgdata log=$dir/postgres.log
    if [[ ! -s $pgdata/PG_VERSION ]]; then
        local extra=()
        [[ ${RW_PG_FAST:-0} == 1 ]] && extra+=(--no-sync)
        if ! (cd "$dir" && runuser -u postgres -- "$bindir/initdb" -D "$pgdata" --auth=trust -U postgres \
                --encoding=UTF8 --no-locale "${extra[@]}") >"$dir/initdb.log" 2>&1; then
            rw__err "initdb failed for $pgdata"
            rw__show_log "$dir/initdb.log"
            return 1
        fi
        # Our settings live in their own file, rewritten at every start (port may change).
        printf "\ninclude_if_exists = 'reelwork.conf'\n" >>"$pgdata/postgresql.conf"
    fi
    if ! {
        echo "# Written by scripts/lib/services.sh at every start: edit it there."
        echo "listen_addresses = '127.0.0.1'"
        echo "port = $port"
        echo "unix_socket_directories = $(rw__conf_quote "$dir")"
        if [[ ${RW_PG_FAST:-0} == 1 ]]; then
            echo "fsync = off"
            echo "synchronous_commit = off"
            echo "full_page_writes = off"
        fi
        # Extra settings, one per line (benchmarks load pg_stat_statements this way).
        if [[ -n ${RW_PG_EXTRA_CONF:-} ]]; then printf '%s\n' "$RW_PG_EXTRA_CONF"; fi
    } >"$pgdata/reelwork.conf" || ! chown postgres:postgres "$pgdata/reelwork.conf"; then
        rw__err "cannot write $pgdata/reelwork.conf"
        return 1
    fi

    local running_pid=""
    [[ -r $pgdata/postmaster.pid ]] && running_pid=$(head -n 1 "$pgdata/postmaster.pid")
    if ! rw__alive "$running_pid"; then
        # From inside DIR: the postgres user may not be allowed into the caller's directory.
        if ! (cd "$dir" && runuser -u postgres -- "$bindir/pg_ctl" -D "$pgdata" -l "$log" -w -t 60 start) \
                >/dev/null 2>"$dir/pg_ctl.err"; then
            rw__err "PostgreSQL did not start on 127.0.0.1:$port ($pgdata)"
            rw__show_log "$dir/pg_ctl.err"
            rw__show_log "$log"
            return 1
        fi
    fi

    local i
    for ((i = 0; i < 300; i++)); do
        "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres && break
        sleep 0.1
    done
    if ! "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres; then
        rw__err "PostgreSQL from $pgdata does not answer on 127.0.0.1:$port"
        rw__show_log "$log"
        return 1
    fi
    head -n 1 "$pgdata/postmaster.pid" >"$dir/postgres.pid" || {
        rw__err "cannot record the PostgreSQL PID in $dir/postgres.pid"
        return 1
    }
    rw__create_database "$bindir" "$port" "$db"
}

# Creates database NAME on the server at 127.0.0.1:PORT unless it exists.
rw__create_database() {
    local bindir=$1 port=$2 db=$3 exists
    local psql=("$bindir/psql" -X -q -tA -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres)
    # The name goes in as a psql variable, so any name is quoted correctly.
    exists=$(printf "SELECT 1 FROM pg_database WHERE datname = :'db';\n" | "${psql[@]}" -v db="$db") || {
        rw__err "cannot query the databases of the server on port $port"
        return 1
    }
    [[ $exists == 1 ]] && return 0
    if ! printf 'CREATE DATABASE :"db";\n' | "${psql[@]}" -v db="$db" 2>"${TMPDIR:-/tmp}/rw-createdb.$$"; then
        # Someone else may have created it meanwhile.
        exists=$(printf "SELECT 1 FROM pg_database WHERE datname = :'db';\n" | "${psql[@]}" -v db="$db")
        if [[ $exists != 1 ]]; then
            rw__err "cannot create database $db:"
            cat "${TMPDIR:-/tmp}/rw-createdb.$$" >&2
            rm -f "${TMPDIR:-/tmp}/rw-createdb.$$"
            return 1
        fi
    fi
    rm -f "${TMPDIR:-/tmp}/rw-createdb.$$"
}

# rw_stop_postgres DIR
# Stops the server rw_start_postgres started in DIR (fast shutdown: open sessions are ended)
# and waits until it has exited. Nothing to stop is not an error.
rw_stop_postgres() {
    local dir=${1:-}
    if [[ -z $dir ]]; then
        rw__err "usage: rw_stop_postgres DIR"
        return 2
    fi
    local pidfile=$dir/postgres.pid pid=""
    [[ -r $pidfile ]] && pid=$(head -n 1 "$pidfile")
    if [[ -z $pid && -r $dir/pgdata/postmaster.pid ]]; then
        pid=$(head -n 1 "$dir/pgdata/postmaster.pid")
    fi
    if ! rw__alive "$pid"; then
        rm -f "$pidfile"
        return 0
    fi
    if [[ $(rw__comm "$pid") != postgres* ]]; then
        rw__err "PID $pid recorded in $dir is not a PostgreSQL server (it is '$(rw__comm "$pid")'); not stopping it"
        return 1
    fi
    kill -INT "$pid"   # SIGINT = fast shutdown
    if ! rw__wait_exit "$pid" 60; then
        rw__err "PostgreSQL (PID $pid) did not stop within 60s; sending SIGQUIT"
        kill -QUIT "$pid" 2>/dev/null || true
        rw__wait_exit "$pid" 10 || {
            rw__err "PostgreSQL (PID $pid) is still running"
            return 1
        }
    fi
    rm -f "$pidfile"
}

# Prints the PIDs of PID's child processes, one per line.
rw__children() {
    local parent=$1 entry stat
    for entry in /proc/[0-9]*; do
        stat=$(cat "$entry/stat" 2>/dev/null) || continue
        stat=${stat##*) }   # after the command name: state, ppid, ...
        stat=${stat#* }
        [[ ${stat%% *} == "$parent" ]] && printf '%s\n' "${entry#/proc/}"
    done
    return 0
}

# rw_kill_postgres DIR
# Kills the server rw_start_postgres started in DIR the way a crash would: SIGKILL to the
# postmaster and every backend at once, no shutdown checkpoint. The next rw_start_postgres
# runs crash recovery from the write-ahead log. For failure tests.
rw_kill_postgres() {
    local dir=${1:-} pid=""
    [[ -r $dir/postgres.pid ]] && pid=$(head -n 1 "$dir/postgres.pid")
    if ! rw__alive "$pid"; then
        rw__err "no PostgreSQL recorded in $dir is running"
        return 1
    fi
    if [[ $(rw__comm "$pid") != postgres* ]]; then
        rw__err "PID $pid recorded in $dir is not a PostgreSQL server; not killing it"
        return 1
    fi
    local victims
    victims=$(rw__children "$pid")
    # shellcheck disable=SC2086 # one PID per word
    kill -KILL "$pid" $victims 2>/dev/null || true
    local victim
    for victim in $pid $victims; do
        rw__wait_exit "$victim" 30 || { rw__err "PostgreSQL process $victim survived SIGKILL"; return 1; }
    done
    # Where nothing reaps orphans (a container's PID 1), the dead postmaster stays a zombie, and
    # PostgreSQL would take its PID in postmaster.pid for a live server; every process of it has
    # exited, so its lock files (data directory and socket) are stale.
    rm -f "$dir/postgres.pid" "$dir/pgdata/postmaster.pid" "$dir"/.s.PGSQL.*
}

# rw_kill_redis DIR
# Kills the redis-server rw_start_redis started in DIR with SIGKILL (no final AOF flush: up to
# the last second of writes is lost, as in a crash). For failure tests.
rw_kill_redis() {
    local dir=${1:-} pid=""
    [[ -r $dir/redis.pid ]] && pid=$(head -n 1 "$dir/redis.pid")
    if ! rw__alive "$pid" || [[ $(rw__comm "$pid") != redis-server* ]]; then
        rw__err "no redis-server recorded in $dir is running"
        return 1
    fi
    kill -KILL "$pid"
    rw__wait_exit "$pid" 30 || { rw__err "redis-server $pid survived SIGKILL"; return 1; }
    rm -f "$dir/redis.pid"
}

# rw_start_redis DIR PORT
# Starts redis-server on 127.0.0.1:PORT only, data in DIR (append-only file, fsync every
# second, never evicting: losing queue entries silently is worse than refusing writes),
# daemonized with its PID in DIR/redis.pid and log in DIR/redis.log; waits for PONG.
# Memory is capped at RW_REDIS_MAXMEMORY (default 512mb): without a maxmemory, noeviction
# means nothing and Redis grows until the kernel kills it; with one, a full Redis refuses new
# work (the coordinator answers 503 queue_unavailable) and keeps what it holds.
# If this DIR's server is already running, it is reused.
rw_start_redis() {
    local dir=${1:-} port=${2:-}
    if [[ -z $dir || -z $port ]]; then
        rw__err "usage: rw_start_redis DIR PORT"
        return 2
    fi
    rw__check_port "$port" || return 1
    if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
        rw__err "redis-server or redis-cli not installed; run rw_install_deps"
        return 1
    fi
    dir=$(rw__make_dir "$dir") || return 1
    local pidfile=$dir/redis.pid log=$dir/redis.log pid=""
    [[ -r $pidfile ]] && pid=$(head -n 1 "$pidfile")
    if ! rw__alive "$pid" || [[ $(rw__comm "$pid") != redis-server* ]]; then
        rm -f "$pidfile"
        if ! redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" \
                --appendonly yes --appendfsync everysec \
                --maxmemory "${RW_REDIS_MAXMEMORY:-512mb}" --maxmemory-policy noeviction \
                --protected-mode yes --daemonize yes --pidfile "$pidfile" --logfile "$log" \
                >/dev/null 2>"$dir/redis-start.err"; then
            rw__err "redis-server did not start on 127.0.0.1:$port"
            rw__show_log "$dir/redis-start.err"
            rw__show_log "$log"
            return 1
        fi
    fi
    local i
    for ((i = 0; i < 300; i++)); do
        if [[ -s $pidfile && $(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null) == PONG ]]; then
            return 0
        fi
        sleep 0.1
    done
    rw__err "redis-server from $dir does not answer PONG on 127.0.0.1:$port"
    rw__show_log "$log"
    return 1
}

# rw_stop_redis DIR
# Stops the redis-server rw_start_redis started in DIR and waits until it has exited.
rw_stop_redis() {
    local dir=${1:-}
    if [[ -z $dir ]]; then
        rw__err "usage: rw_stop_redis DIR"
        return 2
    fi
    local pidfile=$dir/redis.pid pid=""
    [[ -r $pidfile ]] && pid=$(head -n 1 "$pidfile")
    if ! rw__alive "$pid"; then
        rm -f "$pidfile"
        return 0
    fi
    if [[ $(rw__comm "$pid") != redis-server* ]]; then
        rw__err "PID $pid in $pidfile is not redis-server (it is '$(rw__comm "$pid")'); not stopping it"
        return 1
    fi
    kill -TERM "$pid"   # Redis flushes the append-only file and exits
    if ! rw__wait_exit "$pid" 30; then
        rw__err "redis-server (PID $pid) did not stop within 30s"
        return 1
    fi
    rm -f "$pidfile"
}

# True if Debian package PKG is installed.
rw__pkg_installed() {
    # shellcheck disable=SC2016 # ${Status} is dpkg-query's field, not a shell variable
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# rw_install_deps
# Installs whatever Reelwork needs that is missing, with apt-get. Tools count as present when
# their command exists (however installed), so a second run does nothing and needs no network.
# Prints the path of Debian's libfaketime (the library a process preloads to see a shifted clock).
rw_faketime_lib() {
    local lib
    lib=$(dpkg -L libfaketime 2>/dev/null | grep '/faketime/libfaketime\.so\.1$' | head -n 1)
    [[ -n $lib && -r $lib ]] || {
        rw__err "libfaketime not installed; run rw_install_deps"
        return 1
    }
    printf '%s\n' "$lib"
}

rw_install_deps() {
    local missing=() pkg
    command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
    # libcairo2-dev: result pictures (PNG) and reports (PDF) through one drawing API.
    for pkg in libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libhiredis-dev libpq-dev libcairo2-dev; do
        rw__pkg_installed "$pkg" || missing+=("$pkg")
    done
    command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
    command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
    rw__pg_bindir >/dev/null 2>&1 || missing+=(postgresql)
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    command -v curl >/dev/null 2>&1 || missing+=(curl)
    command -v python3 >/dev/null 2>&1 || missing+=(python3)
    # The multi-host test's hosts: network namespaces, veth pairs and a bridge (ip, bridge).
    command -v ip >/dev/null 2>&1 && command -v bridge >/dev/null 2>&1 || missing+=(iproute2)
    # The webhook tests' receiver lives in a venv (Debian splits venv and ensurepip out of python3).
    python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
    # The dashboard's browser tests: Debian's headless Chromium, its driver, selenium for Debian's
    # python3, and a font so pages render text in screenshots.
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
    command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
    /usr/bin/python3 -c 'import selenium' >/dev/null 2>&1 || missing+=(python3-selenium)
    rw__pkg_installed fonts-dejavu-core || missing+=(fonts-dejavu-core)
    # The webhook TLS test makes a certificate authority of its own; the rebinding test runs the
    # coordinator in a mount namespace of its own (unshare, mount: util-linux).
    command -v openssl >/dev/null 2>&1 || missing+=(openssl)
    command -v unshare >/dev/null 2>&1 && command -v mount >/dev/null 2>&1 || missing+=(util-linux mount)
    # The report tests read the PDFs back (pdfinfo, pdftotext) and render their pages (pdftoppm).
    command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
    # The multi-host test runs workers whose clocks are an hour off (LD_PRELOAD of libfaketime).
    rw_faketime_lib >/dev/null 2>&1 || missing+=(libfaketime faketime)
    (( ${#missing[@]} == 0 )) && return 0

    local sudo=()
    if (( EUID != 0 )); then
        command -v sudo >/dev/null 2>&1 || {
            rw__err "missing packages (${missing[*]}) and not root (no sudo either)"
            return 1
        }
        sudo=(sudo)
    fi
    rw__err "installing missing packages: ${missing[*]}"
    local aptlog
    aptlog=$(mktemp "${TMPDIR:-/tmp}/rw-apt.XXXXXX") || return 1
    if ! "${sudo[@]}" apt-get update >"$aptlog" 2>&1 ||
        ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
            "${missing[@]}" >>"$aptlog" 2>&1; then
        rw__err "apt-get failed installing: ${missing[*]}"
        rw__show_log "$aptlog"
        rm -f "$aptlog"
        return 1
    fi
    rm -f "$aptlog"
}
