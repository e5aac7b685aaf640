#!/usr/bin/env bash
# Makes .local/schemathesis/ (gitignored): a Python virtual environment holding schemathesis and
# exactly the packages pinned in tools/schemathesis/requirements.txt, for the API contract test
# (Tests/IntegrationTests/SchemathesisTests.swift) and for running schemathesis by hand (docs/HTTP-API.md,
# "API contract").
#
# Installs Debian's python3-venv with apt-get when `python3 -m venv` cannot make an environment
# (a stock bookworm has python3 without it). Idempotent: when the environment matches the pins it
# prints "schemathesis: up to date" and does nothing else. Safe to run concurrently (a lock
# serialises runs). REELWORK_PYTHON picks the Python (default python3; 3.11 or newer).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC2034  # read by scripts/lib/models.sh
MDL_TAG=schemathesis
# shellcheck source=scripts/lib/models.sh
source scripts/lib/models.sh

VENV=.local/schemathesis
REQUIREMENTS=tools/schemathesis/requirements.txt
PY=${REELWORK_PYTHON:-python3}

# What a finished environment was made from: the Python and the pins. Any change rebuilds it.
stamp() {
    printf 'python %s\n' "$("$PY" -c 'import sys; print(sys.version.split()[0])' 2>/dev/null || echo none)"
    mdl_sha "$REQUIREMENTS"
}

if [[ -x $VENV/bin/schemathesis && -f $VENV/.stamp && $(cat "$VENV/.stamp") == "$(stamp)" ]]; then
    mdl_say "up to date"
    exit 0
fi

mkdir -p .local
exec 9>.local/schemathesis.lock
if ! flock -n 9; then
    mdl_say "waiting for another setup-schemathesis.sh run to finish"
    flock 9
fi

if ! command -v "$PY" >/dev/null 2>&1 || ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    mdl_err "$PY is missing or older than 3.11 (schemathesis 4 needs 3.11; set REELWORK_PYTHON to choose one)"
    exit 1
fi

# Made in place (a venv's scripts name its interpreter by absolute path, so it cannot be moved);
# the stamp, written last, is what marks it finished. Debian splits venv's pip bootstrap
# (ensurepip) into python3-venv: without that package `-m venv` fails.
make_venv() {
    rm -rf "$VENV"
    "$PY" -m venv "$VENV" >"$1" 2>&1
}
log=$(mktemp "${TMPDIR:-/tmp}/rw-venv.XXXXXX")
trap 'rm -f "$log"' EXIT
if ! make_venv "$log"; then
    sudo=()
    (( EUID != 0 )) && command -v sudo >/dev/null 2>&1 && sudo=(sudo)
    if (( EUID == 0 || ${#sudo[@]} > 0 )) && command -v apt-get >/dev/null 2>&1; then
        mdl_say "installing python3-venv with apt-get"
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-venv >>"$log" 2>&1 ||
            { "${sudo[@]}" apt-get update -q >>"$log" 2>&1 &&
              "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-venv >>"$log" 2>&1; } || true
    fi
    if ! make_venv "$log"; then
        mdl_err "$PY -m venv cannot make an environment (apt-get install python3-venv, or set REELWORK_PYTHON):"
        tail -n 25 "$log" | sed 's/^/  | /' >&2
        rm -rf "$VENV"
        exit 1
    fi
fi

started=$SECONDS
mdl_say "installing the pinned packages of $REQUIREMENTS into $VENV"
if ! mdl_run_logged "$log" "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input \
    --no-deps --only-binary=:all: -r "$REQUIREMENTS"; then
    rm -rf "$VENV"
    mdl_err "could not install $REQUIREMENTS from PyPI"
    exit 1
fi
if ! mdl_run_logged "$log" "$VENV/bin/python" -m pip check --disable-pip-version-check; then
    rm -rf "$VENV"
    mdl_err "$REQUIREMENTS is not a complete set (pip check failed): add the missing pins"
    exit 1
fi
stamp >"$VENV/.stamp"
mdl_say "ready in $((SECONDS - started)) s: $("$VENV/bin/schemathesis" --version)"
