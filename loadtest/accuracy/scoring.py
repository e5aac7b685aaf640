"""What the accuracy scorers share: pairing truth with detections, and percentiles."""
import math


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
