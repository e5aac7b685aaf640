#!/usr/bin/env bash
# The dashboard and /metrics with a million jobs (issue 13): seeds a fresh PostgreSQL with JOBS jobs
# (loadtest/dashboard-bench/seed.sql: clubs of very different sizes, every sport and status, 36 error
# messages, batches, 30 days of history), runs pgbench select-only as this machine's yardstick,
# starts a release coordinator on it and its own Redis, signs in as an operator and as a club, and
# times each page, the common filters, the bulk-action confirmation count and /metrics with curl:
# one warm-up request, then RUNS requests one after another; prints the median and p95 in ms per
# page, against the target of 100 ms, and the ratio of each median to the time of one pgbench
# select-only transaction at one client. Servers are stopped on exit.
#   loadtest/dashboard-bench.sh [RUNS] [JOBS]     # defaults: 15 requests per page, 1000000 jobs
#   BIN_DIR=DIR: run the reelwork binary in DIR instead of building it (an older commit, to compare)
#   MIGRATIONS_DIR=DIR: migrate with the files in DIR (that older commit's) instead of ./migrations
#   KEEP_DB=1: keep the seeded database in .local/bench/dashboard and reuse it next time when the
#              migrations, the seed and JOBS are the same (seeding a million jobs takes minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=../scripts/lib/services.sh
source scripts/lib/services.sh
# shellcheck source=compare.sh
source loadtest/compare.sh
runs=${1:-15}
jobs=${2:-1000000}
target_ms=100

rw_install_deps
bin=$(rw_release_bin reelwork)

dir="$root/.local/bench/dashboard"
stamp="$dir/seeded"
migrations=${MIGRATIONS_DIR:-migrations}
want_stamp="$jobs $(cat "$migrations"/*.sql loadtest/dashboard-bench/seed.sql | sha256sum | cut -c1-16)"
if [[ ${KEEP_DB:-0} != 1 || ! -f $stamp || $(cat "$stamp") != "$want_stamp" ]]; then
  rm -rf "$dir"
fi
mkdir -p "$dir/run" && chmod 755 "$dir"
coordinator_pid=""
cleanup() {
  if [[ -n $coordinator_pid ]] && rw__alive "$coordinator_pid"; then
    kill -TERM "$coordinator_pid" 2>/dev/null || true
    rw__wait_exit "$coordinator_pid" 20 || kill -KILL "$coordinator_pid" 2>/dev/null || true
  fi
  rw_stop_postgres "$dir/pg" || true
  rw_stop_redis "$dir/redis" || true
  [[ ${KEEP_DB:-0} == 1 ]] || rm -rf "$dir/pg"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pg_port=$(rw_free_port)
redis_port=$(rw_free_port)
http_port=$(rw_free_port)
# shared_buffers large enough for the jobs table's hot indexes, as a server holding a million
# jobs would be given; everything else as shipped.
RW_PG_EXTRA_CONF="shared_buffers = '512MB'" rw_start_postgres "$dir/pg" "$pg_port" postgres
rm -rf "$dir/redis"
rw_start_redis "$dir/redis" "$redis_port"
psql=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U postgres)
export REELWORK_DATABASE_URL="postgres://postgres@127.0.0.1:${pg_port}/reelwork"
export REELWORK_REDIS_URL="redis://127.0.0.1:${redis_port}/0"

if [[ ! -f $stamp ]]; then
  "${psql[@]}" -d postgres -c "CREATE DATABASE reelwork"
  "$bin/reelwork" migrate --dir "$migrations" >/dev/null
  echo
  echo "==> seeding $jobs jobs (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  start=$(date +%s.%N)
  "${psql[@]}" -d reelwork -v jobs="$jobs" -f loadtest/dashboard-bench/seed.sql | sed 's/^VmHWM:/    peak memory of the seeding server process:/'
  echo "    took $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }') s; database size" \
    "$("${psql[@]}" -d reelwork -tA -c "SELECT pg_size_pretty(pg_database_size('reelwork'))")"
  echo "$want_stamp" >"$stamp"
else
  echo "==> reusing the database seeded with $jobs jobs in $dir (KEEP_DB=1)"
fi
"${psql[@]}" -d reelwork -tA -F ' ' -c "SELECT 'jobs: ' || count(*) || ', failed ' || count(*) FILTER (WHERE status = 'failed') ||
  ', in the last hour ' || count(*) FILTER (WHERE created_at > now() - interval '1 hour') FROM jobs"

echo
echo "==> this machine now: pgbench select-only, 1 client and 8 clients, 10 s each"
"${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS pgbench" -c "CREATE DATABASE pgbench"
pgbench -q -i -s 4 -h 127.0.0.1 -p "$pg_port" -U postgres pgbench >/dev/null 2>&1
pgbench_tps() { pgbench -n -S -c "$1" -j "$(( $1 < 2 ? 1 : 2 ))" -T 10 -h 127.0.0.1 -p "$pg_port" -U postgres pgbench 2>/dev/null | awk '/^tps/ {print $3; exit}'; }
tps1=$(pgbench_tps 1)
tps8=$(pgbench_tps 8)
echo "1 client: $tps1 tps ($(awk -v t="$tps1" 'BEGIN { printf "%.3f", 1000 / t }') ms a transaction); 8 clients: $tps8 tps"
"${psql[@]}" -d postgres -c "DROP DATABASE pgbench"

keys_json() { "$bin/reelwork" keys create "$@" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])'; }
operator_key=$(keys_json --operator --label dashboard-bench)
club=northbowl
club_key=$(keys_json --club "$club" --label dashboard-bench)
metrics_token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')

# A page that takes longer than this is stopped by PostgreSQL (and reported as such), so one slow
# query does not load the server while the next pages are timed.
limit_s=${LIMIT_SECONDS:-20}
PGOPTIONS="-c statement_timeout=${limit_s}s" REELWORK_BIND="127.0.0.1:${http_port}" REELWORK_STORAGE_DIR="$dir/run/storage" REELWORK_METRICS_TOKEN="$metrics_token" \
  "$bin/reelwork" coordinator >"$dir/run/coordinator.log" 2>&1 &
coordinator_pid=$!
base="http://127.0.0.1:${http_port}"
for _ in $(seq 1 300); do
  curl -fsS -o /dev/null "$base/healthz" 2>/dev/null && break
  rw__alive "$coordinator_pid" || { tail -30 "$dir/run/coordinator.log"; echo "the coordinator exited" >&2; exit 1; }
  sleep 0.1
done

sign_in() {   # KEY; prints the session cookie (the form's login token and its cookie first, as a browser)
  local form login token
  form=$(curl -sS -D - "$base/dashboard/login" | tr -d '\r')
  login=$(awk -F': ' 'tolower($1) == "set-cookie" { split($2, a, ";"); print a[1]; exit }' <<<"$form")
  token=$(grep -o 'name="login_csrf" value="[^"]*"' <<<"$form" | head -1 | cut -d'"' -f4)
  curl -sS -o /dev/null -D - -H "Cookie: $login" --data-urlencode "key=$1" --data-urlencode "login_csrf=$token" "$base/dashboard/login" |
    tr -d '\r' | awk -F': ' 'tolower($1) == "set-cookie" { split($2, a, ";"); print a[1]; exit }'
}
operator_cookie=$(sign_in "$operator_key")
club_cookie=$(sign_in "$club_key")
[[ -n $operator_cookie && -n $club_cookie ]] || { echo "signing in failed" >&2; exit 1; }
csrf_of() { curl -sS -H "Cookie: $1" "$base/dashboard/jobs" | grep -o 'name="csrf" value="[^"]*"' | head -1 | cut -d'"' -f4; }
operator_csrf=$(csrf_of "$operator_cookie")
club_csrf=$(csrf_of "$club_cookie")

# The reconciler puts the seeded waiting jobs into Redis (the overview's waiting column): let it.
sleep 3

# What the pages ask about: a job with a result, the first page's last job (for `after`), a day ten days ago.
job_id=$("${psql[@]}" -d reelwork -tA -c "SELECT job_id FROM results ORDER BY created_at DESC OFFSET 100 LIMIT 1")
after=$(curl -sS -H "Cookie: $operator_cookie" "$base/dashboard/jobs" | grep -o 'after=[0-9a-f-]*' | head -1 | cut -d= -f2)
day_from=$(date -u -d '10 days ago' +%Y-%m-%d)
day_to=$(date -u -d '9 days ago' +%Y-%m-%d)

median_ms=()
time_page() {   # LABEL WHO METHOD PATH [FORM]: times RUNS requests after one warm-up
  local label=$1 who=$2 method=$3 path=$4 form=${5:-} cookie auth=() data=() times=() i out code
  case $who in
    operator) cookie=$operator_cookie ;;
    club) cookie=$club_cookie ;;
    metrics-key) cookie="" auth=(-H "Authorization: Bearer $operator_key") ;;
    metrics-token) cookie="" auth=(-H "Authorization: Bearer $metrics_token") ;;
  esac
  [[ $method == POST ]] && data=(--data "$form")
  for i in $(seq 0 "$runs"); do
    out=$(curl -sS -o "$dir/run/body" -w '%{http_code} %{time_total}' ${cookie:+-H "Cookie: $cookie"} "${auth[@]}" "${data[@]}" "$base$path")
    code=${out%% *}
    if [[ $code != 200 ]] && awk -v s="${out#* }" -v l="$limit_s" 'BEGIN { exit !(s >= l - 0.5) }'; then
      # PostgreSQL's statement_timeout stopped it: one such request is enough to know.
      median_ms+=("$((limit_s * 1000))")
      printf '%-44s %-9s %9s %9s %8s %8s\n' "$label" "$who" "> ${limit_s} s" - - SLOW
      return 0
    fi
    if [[ $code != 200 ]]; then
      echo "$label: HTTP $code for $method $path" >&2
      head -c 600 "$dir/run/body" >&2
      exit 1
    fi
    (( i > 0 )) && times+=("$(awk -v s="${out#* }" 'BEGIN { printf "%.2f", s * 1000 }')")
  done
  local sorted median p95
  sorted=$(printf '%s\n' "${times[@]}" | sort -g)
  median=$(printf '%s\n' "$sorted" | rw_median)
  # p95: the nearest-rank value (with 15 requests, the largest but none).
  p95=$(printf '%s\n' "$sorted" | awk -v n="${#times[@]}" '{ v[NR] = $1 } END { r = int(0.95 * n + 0.999999); print v[r] }')
  median_ms+=("$median")
  printf '%-44s %-9s %9s %9s %8s %8s\n' "$label" "$who" "$median" "$p95" \
    "$(awk -v m="$median" -v t="$tps1" 'BEGIN { printf "%.0f", m * t / 1000 }')" \
    "$(awk -v m="$median" -v l="$target_ms" 'BEGIN { print (m < l ? "ok" : "SLOW") }')"
}

echo
echo "==> $runs requests per page after one warm-up, one at a time (load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo "    x pgbench: the median as a multiple of one pgbench select-only transaction at 1 client"
printf '%-44s %-9s %9s %9s %8s %8s\n' page who "median ms" "p95 ms" "x pgbench" "< ${target_ms} ms"
time_page "overview /dashboard" operator GET /dashboard
time_page "overview /dashboard" club GET /dashboard
time_page "jobs /dashboard/jobs" operator GET /dashboard/jobs
time_page "jobs, second page (after=)" operator GET "/dashboard/jobs?after=$after"
time_page "jobs status=failed" operator GET "/dashboard/jobs?status=failed"
time_page "jobs club=riverside-tennis (40 %)" operator GET "/dashboard/jobs?club=riverside-tennis"
time_page "jobs club=tiny-club (0.5 %)" operator GET "/dashboard/jobs?club=tiny-club"
time_page "jobs sport=archery, one day" operator GET "/dashboard/jobs?sport=archery&from=$day_from&to=$day_to"
time_page "jobs q=IMG_4821 (a file name)" operator GET "/dashboard/jobs?q=IMG_4821"
time_page "jobs q=moov+atom (an error text)" operator GET "/dashboard/jobs?q=moov+atom"
time_page "jobs q=practice (in 1 name in 4)" operator GET "/dashboard/jobs?q=practice"
time_page "jobs q=IMG_1 (in 1 name in 40)" operator GET "/dashboard/jobs?q=IMG_1"
time_page "jobs q=IMG_12 (in 1 name in 400)" operator GET "/dashboard/jobs?q=IMG_12"
time_page "jobs q=clip39 (1 in 160, spread evenly)" operator GET "/dashboard/jobs?q=clip39"
time_page "jobs q=no-such-clip (no match)" operator GET "/dashboard/jobs?q=no-such-clip"
time_page "jobs status=failed error=transient" club GET "/dashboard/jobs?status=failed&error=transient"
time_page "jobs q=IMG_4821" club GET "/dashboard/jobs?q=IMG_4821"
time_page "job /dashboard/jobs/{id}" operator GET "/dashboard/jobs/$job_id"
time_page "failed /dashboard/failed" operator GET /dashboard/failed
time_page "failed /dashboard/failed" club GET /dashboard/failed
time_page "batches /dashboard/batches" operator GET /dashboard/batches
time_page "batches /dashboard/batches" club GET /dashboard/batches
time_page "workers /dashboard/workers" operator GET /dashboard/workers
time_page "bulk retry count, no filter" operator POST /dashboard/jobs/bulk "csrf=$operator_csrf&action=retry"
time_page "bulk retry count, club=riverside-tennis" operator POST /dashboard/jobs/bulk "csrf=$operator_csrf&action=retry&club=riverside-tennis"
time_page "bulk retry count, q=IMG_4821" operator POST /dashboard/jobs/bulk "csrf=$operator_csrf&action=retry&q=IMG_4821"
time_page "bulk retry count, q=practice" operator POST /dashboard/jobs/bulk "csrf=$operator_csrf&action=retry&q=practice"
time_page "bulk cancel count, no filter" operator POST /dashboard/jobs/bulk "csrf=$operator_csrf&action=cancel"
time_page "bulk retry count, status=failed" club POST /dashboard/jobs/bulk "csrf=$club_csrf&action=retry&status=failed"
time_page "/metrics (operator key)" metrics-key GET /metrics
time_page "/metrics (scrape token)" metrics-token GET /metrics
slow=$(printf '%s\n' "${median_ms[@]}" | awk -v l="$target_ms" '$1 >= l' | wc -l)
echo "pages with a median of ${target_ms} ms or more: $slow of ${#median_ms[@]}"
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
