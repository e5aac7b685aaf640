# shellcheck shell=bash
# rw_pinned_venv LABEL VENV REQUIREMENTS PACKAGE: makes VENV (under .local/, gitignored) a Python
# venv holding exactly REQUIREMENTS (every line pinned with its hash: `pip --require-hashes`), for a
# test that checks Reelwork against an implementation that is not its own. PACKAGE's pinned version
# (read from REQUIREMENTS) marks the venv up to date: then it prints "LABEL: up to date" and does
# nothing else. A lock (VENV.lock) serialises concurrent runs. REELWORK_PYTHON picks the Python
# (default python3). Run from the repository root.
rw_pinned_venv() {
    local label=$1 venv=$2 requirements=$3 package=$4
    local python=${REELWORK_PYTHON:-python3} version
    version=$(sed -n "s/^$package==\\([^ ]*\\).*/\\1/p" "$requirements")
    [[ -n $version ]] || { echo "$label: $requirements does not pin $package" >&2; return 1; }
    mkdir -p "$(dirname "$venv")"

    _rw_venv_current() {
        [[ -x $venv/bin/python ]] &&
            "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('$package') != '$version')" 2>/dev/null
    }

    exec 9>"$venv.lock"
    flock 9
    if _rw_venv_current; then
        echo "$label: up to date"
        return 0
    fi
    rm -rf "$venv"
    if ! "$python" -m venv "$venv" >/dev/null; then
        echo "$label: '$python -m venv' failed (Debian: apt-get install python3-venv)" >&2
        return 1
    fi
    if ! "$venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes -r "$requirements"; then
        echo "$label: pip could not install $requirements" >&2
        return 1
    fi
    _rw_venv_current || { echo "$label: $package $version is not importable after the install" >&2; return 1; }
    echo "$label: installed $package $version in $venv"
}
