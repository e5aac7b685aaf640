# Helpers for benchmarks that run the same measurement on this tree and on a baseline revision side
# by side (upload-bench.sh, queue-ab.sh), sourced by them:
#   rw_build_baseline DIR REV PRODUCT...   builds REV's release products in its own worktree;
#                                          prints the baseline's release bin directory
#   rw_median < NUMBERS                    the median of one number per line (the lower middle one of an even count)
#   rw_release_bin PRODUCT...              prints the bin directory to run: BIN_DIR when it is set (binaries
#                                          built elsewhere, e.g. an older commit), else this tree's release
#                                          build of the products, built first
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
