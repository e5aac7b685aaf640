# Helpers the benchmarks share (sourced, after scripts/lib/services.sh): running the same
# measurement on this tree and on a baseline revision side by side (upload-bench.sh, queue-ab.sh),
# medians, throwaway servers:
#   rw_build_baseline DIR REV PRODUCT...   builds REV's release products in its own worktree;
#                                          prints the baseline's release bin directory
#   rw_median < NUMBERS                    the median of one number per line (the lower middle one of an even count)
#   rw_release_bin PRODUCT...              prints the bin directory to run: BIN_DIR when it is set (binaries
#                                          built elsewhere, e.g. an older commit), else this tree's release
#                                          build of the products, built first
#   rw_bench_servers DIR                   a throwaway PostgreSQL (no fsync) and Redis under DIR on free
#                                          ports ($pg_port, $redis_port), stopped when the script exits,
#                                          with every process whose PID it adds to the array `pids`
rw_build_baseline() {
  local dir=$1 rev=$2; shift 2
  if [[ ! -d $dir/.git && ! -f $dir/.git ]]; then
    rm -rf "$dir"
    git worktree add --detach "$dir" "$rev" >/dev/null
  fi
  # Models are not in git; the baseline reads this tree's.
  [[ -e $dir/models ]] || ln -s "$(pwd)/models" "$dir/models"
  local product
  for product in "$@"; do
    (cd "$dir" && git checkout -q --detach "$rev" && swift build -c release --product "$product" >/dev/null)
  done
  (cd "$dir" && swift build -c release --show-bin-path)
}

rw_median() {
  sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

rw_release_bin() {
  if [[ -n "${BIN_DIR:-}" ]]; then
    echo "$BIN_DIR"
    return
  fi
  echo "==> building release binaries ($*)" >&2
  local product
  for product in "$@"; do
    swift build -c release --product "$product" >/dev/null
  done
  swift build -c release --show-bin-path
}

rw_bench_servers() {
  local dir=$1
  pids=()
  # shellcheck disable=SC2064  # DIR is fixed now, on purpose
  trap "_rw_bench_stop '$dir'" EXIT INT TERM
  pg_port=$(rw_free_port)
  redis_port=$(rw_free_port)
  RW_PG_FAST=1 rw_start_postgres "$dir/pg" "$pg_port" postgres >/dev/null
  rw_start_redis "$dir/redis" "$redis_port" >/dev/null
}

_rw_bench_stop() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rw_stop_postgres "$1/pg" || true
  rw_stop_redis "$1/redis" || true
}
