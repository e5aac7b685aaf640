#!/usr/bin/env bash
# Creates (or reuses) the Celery venv for the yardstick benchmark: .local/celery-venv with exactly
# loadtest/celery/requirements.txt installed. A stamp file holds the requirements' hash, so a
# second run with the same requirements does nothing and needs no network; changed requirements
# rebuild the venv from scratch (no leftovers from the old set). Prints the venv's python.
#   loadtest/celery/setup.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.local/celery-venv
reqs=loadtest/celery/requirements.txt
stamp=$venv/.requirements.sha256
want=$(sha256sum "$reqs" | cut -d' ' -f1)

if [[ -x $venv/bin/python && -r $stamp && $(cat "$stamp") == "$want" ]]; then
  echo "$PWD/$venv/bin/python"
  exit 0
fi
echo "==> creating $venv (celery from $reqs)" >&2
rm -rf "$venv"
mkdir -p .local
# Debian's python3 ships venv without ensurepip unless python3-venv is installed.
if ! python3 -m venv "$venv" >/dev/null 2>&1; then
  rm -rf "$venv"
  apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv >/dev/null
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-virtualenv -r "$reqs" >&2
"$venv/bin/python" -c 'import celery, kombu, redis, hiredis' # fail here, not mid-benchmark
echo "$want" >"$stamp"
echo "$PWD/$venv/bin/python"
