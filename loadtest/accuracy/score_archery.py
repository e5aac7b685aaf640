#!/usr/bin/env python3
"""Scores `reelwork analyze --sport archery` against the truth of POV-Ray scenes (issue 31).

    score_archery.py [--worst-dir DIR] [--gate 0.15] SCENE_DIR...

Each SCENE_DIR holds truth.json and frame.png (tools/povray/archery_scene.py) and, from
loadtest/accuracy-bench.sh, analysis.json (stdout), analysis.err and analysis.rc. Prints the table
to stdout, then the reliability of the arrows' `confidence` (scoring.print_reliability: an arrow is
right when it matches a true arrow and has its score), notes to stderr; draws the worst scenes into
--worst-dir. Stdlib only; Pillow is used
for the pictures when importable, else ffmpeg's drawbox.

Conventions: the truth is in normalised face coordinates with y DOWN. The analysis is being
switched from y-up to y-down, so each scene is matched both as reported and with y flipped, and
the better match is kept (and reported), so the bench reads the binary before and after the switch.
"""
import json
import math
import os
import subprocess
import sys

from scoring import (arguments, find_object, greedy_match, percentile, pct, print_reliability, print_table, print_worst, score_all,
                     time_summary)


def find_archery_result(doc):
    """The object holding both `face` (or `total`) and `arrows` wherever the document nests it."""
    return find_object(doc, lambda o: "arrows" in o and ("face" in o or "total" in o))


def seg_distance(p, a, b):
    """Distance in pixels from p to the segment a–b."""
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def score_scene(dirpath, gate, shown_keys):
    truth = json.load(open(os.path.join(dirpath, "truth.json")))
    s = {"dir": dirpath, "seed": truth["seed"], "truth": truth, "analysed": False, "reason": "",
         "nTruth": len(truth["arrows"]), "nDet": 0, "matches": [], "phantoms": [], "missed": [],
         "errors": [], "exact": False, "faceFound": False, "faceRight": False, "convention": None,
         "renderSeconds": truth.get("renderSeconds")}
    try:
        rc = int(open(os.path.join(dirpath, "analysis.rc")).read().strip())
    except (OSError, ValueError):
        s["reason"] = "not analysed"
        return s
    err_tail = ""
    try:
        lines = [l for l in open(os.path.join(dirpath, "analysis.err")).read().splitlines() if l.strip()]
        err_tail = lines[-1] if lines else ""
    except OSError:
        pass
    doc = None
    try:
        doc = json.load(open(os.path.join(dirpath, "analysis.json")))
    except (OSError, ValueError):
        pass
    if doc is not None and not shown_keys:
        print("analysis document top-level keys: %s" % (sorted(doc) if isinstance(doc, dict) else type(doc).__name__),
              file=sys.stderr)
        shown_keys.append(True)
    res = find_archery_result(doc) if doc is not None else None
    if rc != 0 or res is None or "needs_person" in err_tail:
        s["reason"] = "analysis failed (rc %d): %s" % (rc, err_tail.replace("error: ", "")[:110])
        s["missed"] = list(range(s["nTruth"]))
        return s
    s["analysed"] = True

    # Face: found, and in the right place (centre within 5 % of the radius, radius within 10 %).
    face = res.get("face") or {}
    c = face.get("center") or {}
    if "x" in c and "radius" in face:
        s["faceFound"] = True
        tc, tr = truth["faceCenterPx"], truth["faceRadiusPx"]
        s["faceCenterErr"] = math.hypot(c["x"] - tc[0], c["y"] - tc[1]) / tr
        s["faceRadiusRatio"] = face["radius"] / tr
        s["faceRight"] = s["faceCenterErr"] <= 0.05 and abs(s["faceRadiusRatio"] - 1) <= 0.10
        s["face"] = face

    det = [a for a in res.get("arrows", []) if "normalizedX" in a and "normalizedY" in a]
    s["det"] = det
    s["nDet"] = len(det)
    tpts = [(a["normalizedX"], a["normalizedY"]) for a in truth["arrows"]]
    best = None
    for conv, sign in (("y-down", 1), ("y-up", -1)):
        dpts = [(a["normalizedX"], sign * a["normalizedY"]) for a in det]
        m = greedy_match(tpts, dpts, gate)
        key = (len(m), -sum(d for _, _, d in m))
        if best is None or key > best[0]:
            best = (key, conv, m)
    _, conv, m = best
    s["convention"] = conv if m else None  # nothing matched: the scene says nothing about it
    s["matches"] = m
    s["errors"] = [d for _, _, d in m]
    mt = {i for i, _, _ in m}
    md = {j for _, j, _ in m}
    s["missed"] = [i for i in range(s["nTruth"]) if i not in mt]
    s["phantoms"] = [j for j in range(len(det)) if j not in md]
    s["wrongScores"] = sum(1 for i, j, _ in m if det[j].get("score") != truth["arrows"][i]["score"])
    s["detTotal"] = res.get("total")
    right = {j for i, j, _ in m if det[j].get("score") == truth["arrows"][i]["score"]}
    s["reliability"] = [(d.get("confidence"), j in right, [r.get("code") for r in d.get("review", [])])
                        for j, d in enumerate(det)]
    s["exact"] = (not s["missed"] and not s["phantoms"] and s["wrongScores"] == 0
                  and res.get("total") == truth["total"])

    # Why: where the phantoms are (on the face's outer edge? along a shaft, towards the
    # fletching?) and whether matched impacts sit towards the nock.
    edge = shaft = hole = 0
    for j in s["phantoms"]:
        d = det[j]
        r = math.hypot(d["normalizedX"], d["normalizedY"])
        px = (d.get("pixelX"), d.get("pixelY"))
        on_shaft = px[0] is not None and any(
            a.get("impactPx") and a.get("nockPx") and seg_distance(px, a["impactPx"], a["nockPx"]) < 4
            for a in truth["arrows"])
        # Scenes rendered before the truth listed its old holes have none to compare with.
        at_hole = any(math.hypot(d["normalizedX"] - h["normalizedX"], d["normalizedY"] - h["normalizedY"]) < 0.05
                      for h in truth.get("oldHoles", []))
        if on_shaft:
            shaft += 1
        elif at_hole:
            hole += 1
        elif 0.9 <= r <= 1.15:
            edge += 1
    s["phantomsAtEdge"], s["phantomsOnShaft"], s["phantomsAtOldHole"] = edge, shaft, hole
    along = []  # signed offset of the detection along impact→nock, in face radii (+ = towards the nock)
    for i, j, _ in m:
        a, d = truth["arrows"][i], det[j]
        if a.get("impactPx") and a.get("nockPx") and d.get("pixelX") is not None:
            vx, vy = a["nockPx"][0] - a["impactPx"][0], a["nockPx"][1] - a["impactPx"][1]
            n = math.hypot(vx, vy)
            if n > 1:
                along.append(((d["pixelX"] - a["impactPx"][0]) * vx + (d["pixelY"] - a["impactPx"][1]) * vy) / n
                             / truth["faceRadiusPx"])
    s["alongShaft"] = along

    why = []
    if not s["faceRight"]:
        why.append("face wrong (centre off %.2f R, radius ×%.2f)" % (s.get("faceCenterErr", float("nan")),
                                                                  s.get("faceRadiusRatio", float("nan")))
                   if s["faceFound"] else "face not found")
    if s["missed"]:
        why.append("%d/%d missed" % (len(s["missed"]), s["nTruth"]))
    if s["phantoms"]:
        why.append("%d phantoms (%d at face edge, %d on shafts)" % (len(s["phantoms"]), edge, shaft))
    if s["wrongScores"]:
        why.append("%d wrong scores" % s["wrongScores"])
    if along and sum(along) / len(along) > 0.02:
        why.append("impacts %.3f R towards the nock" % (sum(along) / len(along)))
    if res.get("total") != truth["total"]:
        why.append("total %s vs %d" % (res.get("total"), truth["total"]))
    s["reason"] = "; ".join(why) or "exact"
    return s


def badness(s):
    if not s["analysed"]:
        return 1000 + s["nTruth"]
    return (0 if s["faceRight"] else 50) + 3 * len(s["missed"]) + 2 * len(s["phantoms"]) \
        + s.get("wrongScores", 0) + abs((s.get("detTotal") or 0) - s["truth"]["total"]) / 10 + sum(s["errors"])


def draw(s, out_path):
    """The frame with the truth (green: impact ring, shaft line to the nock, face centre) and the
    detections (red: impact cross, face centre/radius) drawn over it."""
    t = s["truth"]
    png = os.path.join(s["dir"], "frame.png")
    dets = [(d["pixelX"], d["pixelY"]) for d in s.get("det", []) if d.get("pixelX") is not None]
    face = s.get("face")
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        return draw_ffmpeg(png, out_path, t, dets)
    im = Image.open(png).convert("RGB")
    g = ImageDraw.Draw(im)
    G, Rd = (0, 255, 0), (255, 0, 0)
    cx, cy = t["faceCenterPx"]
    g.line([cx - 10, cy, cx + 10, cy], fill=G, width=2); g.line([cx, cy - 10, cx, cy + 10], fill=G, width=2)
    x0, y0, x1, y1 = t["faceBoundingBoxPx"]
    g.rectangle([x0, y0, x1, y1], outline=G, width=1)
    for a in t["arrows"]:
        if a.get("impactPx"):
            x, y = a["impactPx"]
            g.ellipse([x - 7, y - 7, x + 7, y + 7], outline=G, width=2)
            if a.get("nockPx"):
                g.line([x, y] + a["nockPx"], fill=G, width=1)
            g.text((x + 9, y - 6), a["label"], fill=G)
    for x, y in dets:
        g.line([x - 6, y - 6, x + 6, y + 6], fill=Rd, width=2); g.line([x - 6, y + 6, x + 6, y - 6], fill=Rd, width=2)
    if face and face.get("center"):
        x, y, r = face["center"]["x"], face["center"]["y"], face["radius"]
        g.ellipse([x - r, y - r, x + r, y + r], outline=Rd, width=1)
        g.line([x - 8, y - 8, x + 8, y + 8], fill=Rd, width=1); g.line([x - 8, y + 8, x + 8, y - 8], fill=Rd, width=1)
    g.rectangle([0, 0, im.width, 18], fill=(0, 0, 0))
    g.text((4, 3), "seed %d: %s" % (s["seed"], s["reason"][:160]), fill=(255, 255, 255))
    im.save(out_path)


def draw_ffmpeg(png, out_path, t, dets):
    boxes = ["drawbox=x=%d:y=%d:w=13:h=13:color=green:t=2" % (a["impactPx"][0] - 6, a["impactPx"][1] - 6)
             for a in t["arrows"] if a.get("impactPx")]
    boxes += ["drawbox=x=%d:y=%d:w=9:h=9:color=red:t=2" % (x - 4, y - 4) for x, y in dets]
    vf = ",".join(boxes) or "null"
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", png, "-vf", vf, out_path], check=False)


def main():
    args = arguments(0.15, "match gate in face radii")

    shown = []
    scenes = score_all("score_archery", args.scenes, lambda d: score_scene(d, args.gate, shown))
    if not scenes:
        return 0

    an = [s for s in scenes if s["analysed"]]
    n_truth = sum(s["nTruth"] for s in scenes)
    n_truth_an = sum(s["nTruth"] for s in an)
    n_match = sum(len(s["matches"]) for s in scenes)
    n_det = sum(s["nDet"] for s in an)
    errs = [e for s in scenes for e in s["errors"]]
    along = [v for s in scenes for v in s.get("alongShaft", [])]
    ph = sum(len(s["phantoms"]) for s in an)
    ph_edge = sum(s.get("phantomsAtEdge", 0) for s in an)
    ph_shaft = sum(s.get("phantomsOnShaft", 0) for s in an)
    ph_hole = sum(s.get("phantomsAtOldHole", 0) for s in an)
    conv = {}
    for s in an:
        conv[s["convention"] or "undecided"] = conv.get(s["convention"] or "undecided", 0) + 1
    rtimes = [s["renderSeconds"] for s in scenes if s.get("renderSeconds") is not None]

    rows = [
        ("scenes", str(len(scenes))),
        ("scenes analysed", pct(len(an), len(scenes))),
        ("ends scored exactly", pct(sum(1 for s in scenes if s["exact"]), len(scenes))),
        ("arrow recall (all scenes)", pct(n_match, n_truth)),
        ("arrow recall (analysed scenes)", pct(n_match, n_truth_an)),
        ("arrow precision", pct(n_match, n_det)),
        ("phantoms", "%d (%d at the face edge r 0.9–1.15, %d on a true shaft, %d on an old hole)" % (ph, ph_edge, ph_shaft, ph_hole)),
        ("position error p50 / p90 / p99", "%.4f / %.4f / %.4f face radii" % (
            percentile(errs, 50), percentile(errs, 90), percentile(errs, 99))),
        ("matched within 0.04 R", pct(sum(1 for e in errs if e <= 0.04), len(errs))),
        ("mean offset along the shaft", ("%+.4f R (+ = towards the nock, n=%d)" % (sum(along) / len(along), len(along)))
         if along else "n/a"),
        ("face found (returned)", pct(sum(1 for s in scenes if s["faceFound"]), len(scenes))),
        ("face right (centre ≤ 0.05 R, radius ±10 %)", pct(sum(1 for s in scenes if s["faceRight"]), len(scenes))),
        ("binary's y convention", ", ".join("%s: %d scenes" % kv for kv in sorted(conv.items())) or "n/a"),
        ("render time per scene", time_summary(rtimes, "%.1f")),
    ]
    print_table("archery accuracy on POV-Ray scenes (gate %.2f face radii)" % args.gate, rows)

    print_reliability("reliability of arrow confidence (right: a true arrow, scored right)",
                      [r for s in an for r in s.get("reliability", [])])

    worst = sorted(scenes, key=badness, reverse=True)[:args.worst]
    print_worst(worst, "scenes", args.worst_dir, lambda s: "%s cm face, %d arrows, %.0f° off-axis" % (
        s["truth"]["faceDiameterCm"], s["nTruth"], s["truth"]["camera"]["offAxisDeg"]), draw)
    return 0


if __name__ == "__main__":
    sys.exit(main())
