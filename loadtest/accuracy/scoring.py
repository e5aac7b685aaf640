"""What the accuracy scorers share: their arguments, pairing truth with detections, percentiles,
finding a sport's result in an analysis document, and the folder of worst-case pictures."""
import argparse
import math
import os
import sys


def greedy_match(truth, det, gate, distance=None):
    """Pairs (i_truth, j_det, distance) closest first, each used once, distance ≤ gate. With at
    most a dozen items a scene, greedy nearest-first gives the optimal pairing in all but
    contrived cases. `distance` defaults to the plane distance between (x, y) pairs."""
    distance = distance or (lambda t, d: math.hypot(t[0] - d[0], t[1] - d[1]))
    pairs = sorted((distance(t, d), i, j) for i, t in enumerate(truth) for j, d in enumerate(det))
    used_t, used_d, out = set(), set(), []
    for dist, i, j in pairs:
        if dist > gate:
            break
        if i in used_t or j in used_d:
            continue
        used_t.add(i); used_d.add(j); out.append((i, j, dist))
    return out


def percentile(values, p):
    if not values:
        return float("nan")
    v = sorted(values)
    k = (len(v) - 1) * p / 100
    lo, hi = math.floor(k), math.ceil(k)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def pct(a, b):
    return "%.1f %% (%d/%d)" % (100 * a / b, a, b) if b else "n/a"


def find_object(doc, holds):
    """The first object in an analysis document (depth first) for which holds(object) is true, so
    a renamed wrapper around a sport's result does not break a bench; None when there is none."""
    if isinstance(doc, dict):
        if holds(doc):
            return doc
        children = doc.values()
    elif isinstance(doc, list):
        children = doc
    else:
        return None
    for v in children:
        found = find_object(v, holds)
        if found is not None:
            return found
    return None


def arguments(gate, gate_help):
    """SCENE_DIR… [--gate G] [--worst-dir DIR] [--worst N], parsed."""
    ap = argparse.ArgumentParser()
    ap.add_argument("scenes", nargs="+")
    ap.add_argument("--gate", type=float, default=gate, help=gate_help)
    ap.add_argument("--worst-dir")
    ap.add_argument("--worst", type=int, default=5)
    return ap.parse_args()


def score_all(tool, folders, score, needed=("truth.json",)):
    """`score(folder)` for each scene folder that holds every `needed` file; a note on stderr for one
    that does not (its render failed), and "no scenes to score" when none does."""
    scenes = []
    for d in folders:
        missing = [f for f in needed if not os.path.exists(os.path.join(d, f))]
        if missing:
            print("%s: %s has no %s (render failed?)" % (tool, d, " or ".join(missing)), file=sys.stderr)
            continue
        scenes.append(score(d))
    if not scenes:
        print("no scenes to score")
    return scenes

def clear_worst_pictures(folder):
    """Makes `folder` and removes the pictures an earlier run drew there (only ours: worst-*.png)."""
    os.makedirs(folder, exist_ok=True)
    for f in os.listdir(folder):
        if f.startswith("worst-") and f.endswith(".png"):
            os.remove(os.path.join(folder, f))


def print_worst(worst, noun, folder, describe, draw, drawable=lambda scene: True):
    """Lists the worst scenes, one line each (`describe(scene)` says what the scene was), and where
    `folder` is given draws each `drawable` one (`draw(scene, path)`) as worst-K-seedN.png there."""
    print("worst %d %s:" % (len(worst), noun))
    if folder:
        clear_worst_pictures(folder)
    for k, s in enumerate(worst, 1):
        line = "  %d. seed %d (%s): %s" % (k, s["seed"], describe(s), s["reason"])
        if folder and drawable(s):
            path = os.path.join(folder, "worst-%d-seed%d.png" % (k, s["seed"]))
            draw(s, path)
            line += "  → %s" % path
        print(line)


def print_table(title, rows):
    """The title, then one `name  value` line per row, names aligned."""
    w = max(len(k) for k, _ in rows)
    print(title)
    for k, v in rows:
        print("  %-*s  %s" % (w, k, v))


def time_summary(seconds, unit_format):
    """`mean …, max … (n=…)` of render times, or n/a."""
    if not seconds:
        return "n/a"
    return ("mean %s s, max %s s (n=%%d)" % (unit_format, unit_format)) % (sum(seconds) / len(seconds), max(seconds), len(seconds))


# Coarse on purpose: a benchmark of a few dozen results cannot say more than high, middle or low.
RELIABILITY_BINS = [(0.0, 0.3), (0.3, 0.6), (0.6, 0.8), (0.8, 1.0001)]


def print_reliability(title, results, bins=RELIABILITY_BINS):
    """Each result is (confidence, right, review codes). A reliability table: for each confidence
    bin, how many results fell in it, their mean confidence and the share right (calibrated: the
    two agree); then, for each review code, how many results carry it and the share right, beside
    the share right of those with no code (the factor `share with / share clean` is what a
    confidence table such as Basketball's ShotConfidence is calibrated from)."""
    scored = [(c, ok, codes) for c, ok, codes in results if c is not None]
    print(title)
    print("  %-12s %6s %10s %18s" % ("confidence", "count", "mean conf.", "share right"))
    for lo, hi in bins:
        inside = [(c, ok) for c, ok, _ in scored if lo <= c < hi]
        mean = "%.2f" % (sum(c for c, _ in inside) / len(inside)) if inside else "–"
        print("  %-12s %6d %10s %18s" % ("%.2f–%.2f" % (lo, min(hi, 1.0)), len(inside), mean,
                                         pct(sum(1 for _, ok in inside if ok), len(inside))))
    if scored:
        mean = sum(c for c, _, _ in scored) / len(scored)
        print("  %-12s %6d %10.2f %18s" % ("all", len(scored), mean, pct(sum(1 for _, ok, _ in scored if ok), len(scored))))
    clean = [ok for _, ok, codes in scored if not codes]
    print("  by review reason (a result may carry several):")
    print("    %-22s %6d  right %s" % ("(none)", len(clean), pct(sum(clean), len(clean))))
    for code in sorted({c for _, _, codes in scored for c in codes}):
        with_code = [ok for _, ok, codes in scored if code in codes]
        print("    %-22s %6d  right %s" % (code, len(with_code), pct(sum(with_code), len(with_code))))
