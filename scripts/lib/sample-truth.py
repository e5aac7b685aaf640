#!/usr/bin/env python3
"""Prints each sample job's result beside its clip's known truth (CLIP.truth.json).

usage: sample-truth.py JOBS RESULTS
  JOBS     lines "JOB_ID CLIP_PATH" (what run-local.sh submitted)
  RESULTS  `reelwork jobs results ID... --format json`: documents by job id

One block per clip: what was found, what the truth is, and whether they agree within the accuracy
tests' tolerances (contacts ±0.2 s; bowling speeds ±0.5 mph, boards ±0.5, entry angle ±0.5°,
rev rate ±10 %; basketball: every attempt made or missed and 2PT/3PT exactly, release ±0.4 s, the
totals exact; archery: the arrow count, the total, each arrow's score within 0.04 face radii).
Exits 0 either way: this is a report for people, the tests are the check.
"""
import json
import os
import sys


def fmt(value, unit=""):
    return "-" if value is None else f"{value:.1f}{unit}"


def close(found, truth, tolerance):
    if truth is None:
        return True
    return found is not None and abs(found - truth) <= tolerance


def tennis(result, warnings, truth):
    swings = result.get("swings") or []
    contacts = [(s.get("keyFrameTimes") or {}).get("contact") for s in swings]
    expected = [s["contact"] for s in truth["swings"]]
    found_line = f"{len(swings)} swing(s), contact at {', '.join(fmt(c, ' s') for c in contacts) or '-'}; warnings: {', '.join(warnings) or 'none'}"
    truth_line = f"{len(expected)} swing(s), contact at {', '.join(fmt(c, ' s') for c in expected)}; warnings: {', '.join(truth['warnings']) or 'none'}"
    agrees = len(contacts) == len(expected) and all(close(c, e, 0.2) for c, e in zip(contacts, expected)) \
        and sorted(truth["warnings"]) == sorted(warnings)
    return found_line, truth_line, agrees


def bowling(result, warnings, truth):
    shots = result.get("shots") or []
    def describe(s, gutter):
        if gutter:
            return f"launch {fmt(s.get('launchSpeed'), ' mph')}, gutter"
        return (f"launch {fmt(s.get('launchSpeed'), ' mph')}, arrows {fmt(s.get('arrowBoard'))}, pocket {fmt(s.get('pocketBoard'))}, "
                f"entry {fmt(s.get('entryAngle'), '°')}, {fmt(s.get('revRate'), ' rpm')}")
    found_line = f"{len(shots)} shot(s): " + " | ".join(describe(s, s.get("result") == "gutter") for s in shots)
    truth_line = f"{len(truth['shots'])} shot(s): " + " | ".join(describe(t, t["gutter"]) for t in truth["shots"])
    agrees = len(shots) == len(truth["shots"])
    for s, t in zip(shots, truth["shots"]):
        agrees = agrees and close(s.get("launchSpeed"), t["launchSpeed"], 0.5) and close(s.get("arrowBoard"), t["arrowBoard"], 0.5)
        if not t["gutter"]:
            agrees = agrees and close(s.get("pocketBoard"), t["pocketBoard"], 0.5) and close(s.get("entryAngle"), t["entryAngle"], 0.5) \
                and close(s.get("revRate"), t["revRate"], 0.1 * t["revRate"])
    return found_line, truth_line, agrees


def basketball(result, warnings, truth):
    shots = result.get("shots") or []
    stats = result.get("stats") or {}
    def line(attempts, made, threes, threes_made, points):
        return f"{made}/{attempts} made, 3PT {threes_made}/{threes}, 2PT {made - threes_made}/{attempts - threes}, {points} points"
    def describe(s):
        return f"{'made' if s.get('made') else 'miss'} {s.get('shotType')} {fmt(s.get('releaseTime'), ' s')}"
    found_line = line(stats.get("fieldGoalsAttempted", len(shots)), stats.get("fieldGoalsMade", 0), stats.get("threePointAttempted", 0),
                      stats.get("threePointMade", 0), stats.get("points", 0)) + ": " + " | ".join(describe(s) for s in shots)
    t = truth["stats"]
    truth_line = line(t["fieldGoalsAttempted"], t["fieldGoalsMade"], t["threePointAttempted"], t["threePointMade"], t["points"]) \
        + ": " + " | ".join(describe(s) for s in truth["shots"])
    agrees = len(shots) == len(truth["shots"]) and all(stats.get(key) == value for key, value in t.items())
    for s, e in zip(shots, truth["shots"]):
        agrees = agrees and s.get("made") == e["made"] and s.get("shotType") == e["shotType"] \
            and close(s.get("releaseTime"), e["releaseTime"], 0.4)
    return found_line, truth_line, agrees


def archery(result, warnings, truth):
    arrows = result.get("arrows") or []
    def mark(a, x_key):
        return "X" if a.get(x_key) else ("M" if a.get("score") == 0 else str(a.get("score", "-")))
    found_line = f"{len(arrows)} arrow(s): {' '.join(mark(a, 'isXRing') for a in arrows) or '-'}, total {result.get('total', '-')}"
    truth_line = f"{len(truth['arrows'])} arrow(s): {' '.join(mark(a, 'isXRing') for a in truth['arrows'])}, total {truth['total']}"
    # Each true arrow has a found one within 0.04 face radii with its score (the accuracy tests' rule).
    def matched(t):
        near = [a for a in arrows if a.get("normalizedX") is not None and a.get("normalizedY") is not None
                and ((a["normalizedX"] - t["normalizedX"]) ** 2 + (a["normalizedY"] - t["normalizedY"]) ** 2) ** 0.5 <= 0.04]
        return any(a.get("score") == t["score"] for a in near)
    agrees = len(arrows) == len(truth["arrows"]) and result.get("total") == truth["total"] and all(matched(t) for t in truth["arrows"])
    return found_line, truth_line, agrees


SPORTS = {"tennis": tennis, "bowling": bowling, "basketball": basketball, "archery": archery}


def main():
    jobs_path, results_path = sys.argv[1:3]
    with open(results_path) as f:
        documents = json.load(f)
    with open(jobs_path) as f:
        jobs = [line.split(maxsplit=1) for line in f if line.strip()]
    for job_id, clip in jobs:
        clip = clip.strip()
        name = os.path.basename(clip)
        try:
            with open(clip + ".truth.json") as f:
                truth = json.load(f)
        except OSError:
            print(f"{name}: no known truth beside it")
            continue
        document = documents.get(job_id.lower())
        if document is None:
            print(f"{name} ({truth['sport']}): the job did not succeed; `reelwork jobs show {job_id}` says why")
            continue
        warnings = [w["code"] for w in document.get("warnings", [])]
        found_line, truth_line, agrees = SPORTS[truth["sport"]](document.get("result", {}), warnings, truth)
        print(f"{name} ({truth['sport']}): {'agrees with its truth' if agrees else 'DIFFERS from its truth'}")
        print(f"    found  {found_line}")
        print(f"    truth  {truth_line}")


if __name__ == "__main__":
    main()
