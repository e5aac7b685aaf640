#!/usr/bin/env python3
"""Scores `reelwork analyze --sport basketball` against the truth of POV-Ray sessions (issue 31).

    score_basketball.py [--worst-dir DIR] [--gate 0.35] SCENE_DIR...

Each SCENE_DIR holds truth.json, frames/ and clip.mp4 (tools/povray/basketball_scene.py) and, from
loadtest/accuracy-bench.sh, analysis.json, analysis.err and analysis.rc. An attempt is found when a
reported shot's release lies within --gate seconds of the true release (each used once). Prints the
table to stdout, then the reliability of the shots' `confidence` (scoring.print_reliability: a shot
is right when it matches an attempt and has made/missed and 2PT/3PT right; a phantom is wrong) with
the share right by review reason; draws the worst sessions into --worst-dir (Pillow when importable).
"""
import json
import os
import sys

from scoring import (arguments, find_object, greedy_match, percentile, pct, print_reliability, print_table, print_worst,
                     score_all, time_summary)


def find_basketball_result(doc):
    """The object holding `shots` and `hoop` wherever the analysis document nests it."""
    return find_object(doc, lambda o: "shots" in o and "hoop" in o)


def codes(shot):
    """The shot's review codes (none from a binary that writes no `review`)."""
    return [r.get("code") for r in shot.get("review") or []]


def score_scene(d, gate):
    truth = json.load(open(os.path.join(d, "truth.json")))
    s = {"dir": d, "seed": truth["seed"], "truth": truth, "analysed": False, "reason": "", "det": [],
         "matches": [], "missed": [], "phantoms": [], "wrongMade": [], "wrongType": [],
         "releaseErr": [], "rimErr": []}
    try:
        rc = int(open(os.path.join(d, "analysis.rc")).read().strip())
        doc = json.load(open(os.path.join(d, "analysis.json"))) if rc == 0 else None
    except (OSError, ValueError):
        rc, doc = -1, None
    result = find_basketball_result(doc) if doc else None
    if result is None:
        err = ""
        try:
            err = open(os.path.join(d, "analysis.err")).read().strip().splitlines()[-1]
        except (OSError, IndexError):
            pass
        s["reason"] = "not analysed (rc %s): %s" % (rc, err[:140])
        s["missed"] = list(range(len(truth["shots"])))
        return s
    s["analysed"] = True
    det = result["shots"]
    s["det"] = det
    shots = truth["shots"]
    pairs = greedy_match([(t["releaseTime"],) for t in shots], [(x["releaseTime"],) for x in det], gate,
                         distance=lambda a, b: abs(a[0] - b[0]))
    s["matches"] = pairs
    matched_t, matched_d = {i for i, _, _ in pairs}, {j for _, j, _ in pairs}
    s["missed"] = [i for i in range(len(shots)) if i not in matched_t]
    s["phantoms"] = [j for j in range(len(det)) if j not in matched_d]
    s["confidence"] = []
    for i, j, dt in pairs:
        t, x = shots[i], det[j]
        s["releaseErr"].append(dt)
        if t.get("rimTime") is not None:
            s["rimErr"].append(abs(t["rimTime"] - x["rimTime"]))
        made_right = t["made"] == x["made"]
        if not made_right:
            s["wrongMade"].append((i, j))
        if t["shotType"] != x["shotType"]:
            s["wrongType"].append((i, j))
        s["confidence"].append((x.get("confidence"), made_right and t["shotType"] == x["shotType"], codes(x)))
    # A phantom is a result given with a confidence, and wrong.
    for j in s["phantoms"]:
        s["confidence"].append((det[j].get("confidence"), False, codes(det[j])))
    notes = []
    if s["missed"]:
        notes.append("missed " + ", ".join("#%d %s" % (i + 1, shots[i]["kind"]) for i in s["missed"]))
    if s["phantoms"]:
        notes.append("%d phantom(s) at %s s" % (len(s["phantoms"]), ", ".join("%.2f" % det[j]["releaseTime"] for j in s["phantoms"])))
    for i, j in s["wrongMade"]:
        notes.append("#%d %s called %s" % (i + 1, shots[i]["kind"], "made" if det[j]["made"] else "missed"))
    for i, j in s["wrongType"]:
        notes.append("#%d %.1f ft called %s (%.1f ft)" % (i + 1, shots[i]["distanceFt"], det[j]["shotType"], det[j]["distanceFt"]))
    s["reason"] = "; ".join(notes) or "exact"
    s["exact"] = not notes
    return s


def badness(s):
    if not s["analysed"]:
        return 1000 + len(s["truth"]["shots"])
    return 3 * len(s["missed"]) + 3 * len(s["phantoms"]) + 2 * len(s["wrongMade"]) + len(s["wrongType"])


def draw(s, out_path):
    """The frame at the worst attempt's rim time with each true path (green) and each reported
    trajectory (red: made, orange: missed) drawn over it."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        return
    t = s["truth"]
    shots = t["shots"]
    bad = [i for i, _ in s["wrongMade"]] + s["missed"] + [i for i, _ in s["wrongType"]]
    focus = shots[bad[0]] if bad else shots[0]
    at = focus.get("rimTime") or focus["releaseTime"]
    frame = min(t["frames"] - 1, max(0, int(round(at * t["fps"]))))
    im = Image.open(os.path.join(s["dir"], "frames", "%05d.png" % frame)).convert("RGB")
    g = ImageDraw.Draw(im)
    for k, shot in enumerate(shots):
        pts = [(p[1], p[2]) for p in shot["pathPx"]]
        if len(pts) > 1:
            g.line(pts, fill=(0, 220, 0), width=1)
            g.text((pts[0][0] + 4, pts[0][1] - 14), "%d %s%s" % (k + 1, shot["kind"], "+" if shot["made"] else "-"), fill=(0, 255, 0))
    for x in s["det"]:
        pts = [(p[1], p[2]) for p in x.get("trajectory", [])]
        colour = (255, 40, 40) if x["made"] else (255, 160, 0)
        for px, py in pts:
            g.ellipse([px - 2, py - 2, px + 2, py + 2], outline=colour)
    (lx, ly), (rx, ry) = t["rimEnds"]
    g.line([lx, ly, rx, ry], fill=(0, 200, 255), width=1)
    g.rectangle([0, 0, im.width, 16], fill=(0, 0, 0))
    g.text((4, 2), "seed %d: %s" % (s["seed"], s["reason"][:150]), fill=(255, 255, 255))
    im.save(out_path)


def main():
    args = arguments(0.35, "release-time gate in seconds")

    scenes = score_all("score_basketball", args.scenes, lambda d: score_scene(d, args.gate))
    if not scenes:
        return 0
    an = [s for s in scenes if s["analysed"]]
    n_truth = sum(len(s["truth"]["shots"]) for s in scenes)
    n_det = sum(len(s["det"]) for s in an)
    n_match = sum(len(s["matches"]) for s in scenes)
    made_right = n_match - sum(len(s["wrongMade"]) for s in scenes)
    type_right = n_match - sum(len(s["wrongType"]) for s in scenes)
    rel = [e for s in scenes for e in s["releaseErr"]]
    rim = [e for s in scenes for e in s["rimErr"]]
    by_kind = {}
    for s in an:
        shots = s["truth"]["shots"]
        wrong = {i for i, _ in s["wrongMade"]}
        for i, _, _ in s["matches"]:
            k = shots[i]["kind"]
            ok, n = by_kind.get(k, (0, 0))
            by_kind[k] = (ok + (i not in wrong), n + 1)
        for i in s["missed"]:
            k = shots[i]["kind"]
            by_kind.setdefault(k, (0, 0))
    missed_kinds = {}
    for s in scenes:
        for i in s["missed"]:
            k = s["truth"]["shots"][i]["kind"]
            missed_kinds[k] = missed_kinds.get(k, 0) + 1
    rtimes = [s["truth"]["renderSeconds"] for s in scenes if s["truth"].get("renderSeconds") is not None]
    rows = [
        ("sessions", str(len(scenes))),
        ("sessions analysed", pct(len(an), len(scenes))),
        ("sessions exactly right", pct(sum(1 for s in scenes if s.get("exact")), len(scenes))),
        ("attempt recall", pct(n_match, n_truth)),
        ("attempt precision", pct(n_match, n_det)),
        ("made/missed right (found attempts)", pct(made_right, n_match)),
        ("2PT/3PT right (found attempts)", pct(type_right, n_match)),
        ("release error p50 / p90", "%.3f / %.3f s" % (percentile(rel, 50), percentile(rel, 90))),
        ("rim time error p50 / p90", "%.3f / %.3f s" % (percentile(rim, 50), percentile(rim, 90))),
        ("made/missed right by kind", ", ".join("%s %d/%d" % (k, ok, n) for k, (ok, n) in sorted(by_kind.items()))),
        ("attempts missed by kind", ", ".join("%s %d" % kv for kv in sorted(missed_kinds.items())) or "none"),
        ("render time per session", time_summary(rtimes, "%.0f")),
    ]
    print_table("basketball accuracy on POV-Ray sessions (release gate %.2f s)" % args.gate, rows)
    print_reliability("reliability of shot confidence (right: a found attempt with made/missed and 2PT/3PT right; "
                      "a phantom is wrong; coarse bins, few shots)", [c for s in an for c in s.get("confidence", [])])
    worst = [s for s in sorted(scenes, key=badness, reverse=True) if badness(s) > 0][:args.worst]
    print_worst(worst, "sessions", args.worst_dir, lambda s: "%dx%d %d fps, camera %.0f ft up" % (
        s["truth"]["width"], s["truth"]["height"], s["truth"]["fps"], s["truth"]["camera"]["location"][1]),
        draw, drawable=lambda s: s["analysed"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
