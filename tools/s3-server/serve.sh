#!/usr/bin/env bash
# usage: tools/s3-server/serve.sh DIR HOST PORT ACCESS_KEY SECRET_KEY [RCLONE_FLAG...]
# Serves S3 on HOST:PORT over DIR (each folder in it a bucket) with rclone from
# .local/s3-server (scripts/setup-s3-server.sh), checking Signature V4 with the one key pair.
# Prints "listening on HOST:PORT" once it accepts connections, then runs until its standard input
# closes (the test that started it ended, or let go of it) and stops rclone. rclone's log goes to
# DIR.log. Listings are not cached (--dir-cache-time 0s): tests change the folder behind the
# server's back (an object's age, an orphan left by a crash) and the next listing must show it.
set -euo pipefail
dir=$1 host=$2 port=$3 key=$4 secret=$5
shift 5   # what is left goes to rclone (e.g. --bwlimit 200k: a slow store)
rclone="$(cd "$(dirname "$0")/../.." && pwd)/.local/s3-server/bin/rclone"
[[ -x $rclone ]] || { echo "no rclone at $rclone: run scripts/setup-s3-server.sh"; exit 1; }
"$rclone" serve s3 --auth-key "$key,$secret" --addr "$host:$port" --dir-cache-time 0s "$@" "$dir" >"$dir.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null' EXIT
# Up to 10 s for rclone to listen, checking every 50 ms.
for _ in $(seq 200); do
    if (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then
        echo "listening on $host:$port"
        cat >/dev/null
        exit 0
    fi
    kill -0 "$pid" 2>/dev/null || { echo "rclone exited: $(tail -n 3 "$dir.log" | tr '\n' ' ')"; exit 1; }
    sleep 0.05
done
echo "rclone did not listen on $host:$port within 10 s"
exit 1
