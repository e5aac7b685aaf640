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
venv=.local/webhook-receiver
requirements=tools/webhook-receiver/requirements.txt
python=${REELWORK_PYTHON:-python3}
mkdir -p .local

up_to_date() {
    [[ -x $venv/bin/python ]] &&
        "$venv/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("standardwebhooks") != "1.1.0")' 2>/dev/null
}

exec 9>.local/webhook-receiver.lock
flock 9
if up_to_date; then
    echo "webhook receiver: up to date"
    exit 0
fi
rm -rf "$venv"
if ! "$python" -m venv "$venv" >/dev/null; then
    echo "webhook receiver: '$python -m venv' failed (Debian: apt-get install python3-venv)" >&2
    exit 1
fi
if ! "$venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes -r "$requirements"; then
    echo "webhook receiver: pip could not install $requirements" >&2
    exit 1
fi
up_to_date || { echo "webhook receiver: standardwebhooks 1.1.0 is not importable after the install" >&2; exit 1; }
echo "webhook receiver: installed standardwebhooks 1.1.0 in $venv"
