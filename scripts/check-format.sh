#!/usr/bin/env bash
# The Swift files changed since `.swift-format` was adopted are formatted as it says (swift-format,
# part of the Swift toolchain). A ratchet: a file is held to the format from the first change to it
# after the adoption, so adopting it did not reformat the whole tree in one commit.
#
#   scripts/check-format.sh           lint the changed files (committed since the adoption, or not
#                                      committed yet); exit 1 naming each finding
#   scripts/check-format.sh --fix     format those files in place
#   scripts/check-format.sh --all     lint every Swift file (informational: most are not yet formatted)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=lint
case ${1:-} in
  "") ;;
  --fix) mode=fix ;;
  --all) mode=all ;;
  *) echo "usage: scripts/check-format.sh [--fix | --all]" >&2; exit 2 ;;
esac

if ! command -v swift-format >/dev/null 2>&1; then
  echo "check-format: swift-format not found on PATH (it ships with the Swift 6 toolchain, next to swift)" >&2
  exit 1
fi

swift_files() { grep -E '\.swift$' | grep -E '^(Sources|Tests|loadtest|Package\.swift)' || true; }

if [[ $mode == all ]]; then
  mapfile -t files < <(git ls-files | swift_files)
else
  # The commit that added .swift-format. In a clone without it (a shallow one), only the last
  # commit's files are checked.
  adoption=$(git log --diff-filter=A --format=%H -- .swift-format | tail -n 1)
  if [[ -n $adoption ]]; then
    base=$adoption
  elif git rev-parse -q --verify HEAD~1 >/dev/null; then
    base=HEAD~1
    echo "check-format: the commit adopting .swift-format is not in this clone; checking the last commit's files"
  else
    base=HEAD
  fi
  # Changed since the base, committed or not; files since deleted are left out.
  mapfile -t files < <({ git diff --name-only --diff-filter=d "$base" --; git ls-files --others --exclude-standard; } | sort -u | swift_files)
fi

if (( ${#files[@]} == 0 )); then
  echo "check-format: no Swift file changed since .swift-format was adopted"
  exit 0
fi
if [[ $mode == fix ]]; then
  swift-format format --in-place --configuration .swift-format "${files[@]}"
  echo "check-format: formatted ${#files[@]} file(s)"
  exit 0
fi
# One test naming style (testWhatHolds): swift-format lets XCTest names have underscores.
named=0
if [[ $mode != fix ]]; then
  for file in "${files[@]}"; do
    [[ $file == Tests/* ]] || continue
    while IFS= read -r line; do
      echo "$file:$line: error: [TestName] name tests testWhatHolds, without underscores"
      named=1
    done < <(grep -nE 'func test[A-Za-z0-9]*_' "$file" | cut -d: -f1 || true)
  done
fi
if swift-format lint --strict --configuration .swift-format "${files[@]}" && (( ! named )); then
  echo "check-format: ${#files[@]} Swift file(s) formatted as .swift-format says"
elif [[ $mode == all ]]; then
  exit 1
else
  echo "check-format: the findings above are in files changed since .swift-format was adopted;" \
       "scripts/check-format.sh --fix formats them; a test name is renamed by hand (docs/TESTING.md, \"Format and test names\")" >&2
  exit 1
fi
