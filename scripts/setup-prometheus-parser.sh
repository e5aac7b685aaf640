#!/usr/bin/env bash
# Makes .local/prometheus-parser/ (gitignored): a Python venv with the pinned prometheus_client
# (tools/prometheus-parser/requirements.txt, with its hash), whose text parser the metrics test
# reads /metrics with (tools/prometheus-parser/parse.py). Idempotent: when the venv already has the
# pinned version it prints "prometheus parser: up to date" and does nothing else. Safe to run
# concurrently (a lock serialises runs). REELWORK_PYTHON picks the Python (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/pinned-venv.sh
source scripts/lib/pinned-venv.sh
rw_pinned_venv "prometheus parser" .local/prometheus-parser tools/prometheus-parser/requirements.txt prometheus_client
