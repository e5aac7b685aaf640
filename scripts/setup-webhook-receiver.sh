#!/usr/bin/env bash
# Makes .local/webhook-receiver/ (gitignored): a Python venv with the pinned `standardwebhooks`
# package (tools/webhook-receiver/requirements.txt), which the webhook tests' receiver
# (tools/webhook-receiver/receiver.py) uses to verify signatures with an implementation that is
# not Reelwork's. Idempotent: when the venv already has the pinned version it prints
# "webhook receiver: up to date" and does nothing else. Safe to run concurrently (a lock
# serialises runs); the tests run it themselves when the venv is missing.
# REELWORK_PYTHON picks the Python (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/pinned-venv.sh
source scripts/lib/pinned-venv.sh
rw_pinned_venv "webhook receiver" .local/webhook-receiver tools/webhook-receiver/requirements.txt standardwebhooks
