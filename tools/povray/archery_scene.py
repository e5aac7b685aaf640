#!/usr/bin/env python3
"""Ray-traced archery scenes with known truth, for measuring Reelwork's archery analysis on
footage it did not make itself (issue 31).

This renderer deliberately shares nothing with Fixtures/ArcheryScenes (the project's Swift
rasteriser): the scene is described to POV-Ray, which ray-traces it with its own geometry,
antialiasing, soft shadows and colour handling. The truth is written by this script, which
placed every object, so a bug in Reelwork's own scene maths cannot hide a bug in the analysis.

    archery_scene.py --seed N --out DIR [--width W --height H] [--debug-markers] [--no-render]

writes DIR/scene.pov, DIR/frame.png (POV-Ray) and DIR/truth.json. Everything random comes from
random.Random(seed), so a seed always gives the same scene.

Coordinates (POV-Ray is left-handed): x right, y up, z away from the viewer who stands in front
of the face. The face lies in the plane z = 0 with its centre at (0, FACE_H, 0), printed side
towards -z. Lengths are metres.

Truth convention: normalised face coordinates with x right and y DOWN as the face is seen from
the front (centre 0, face radius 1), the impact being where the shaft's axis meets the face
plane. Pixel coordinates are those of pixel centres: the top-left pixel's centre is (0, 0).
"""
import argparse
import json
import math
import os
import random
import sys
import time

from povray_common import Camera, add, cross, mul, norm, pv, run_povray, srgb

FACE_H = 1.30  # height of the face centre above the ground (World Archery: 130 cm)

# ---------------------------------------------------------------------------------------------
# The face: one disc whose pigment is a function of the distance from the centre, so every ring
# edge is exact (the ray tracer evaluates it per sample, no tessellation).

GOLD, RED, BLUE = (1.00, 0.86, 0.10), (0.90, 0.12, 0.14), (0.05, 0.62, 0.86)
BLACK, WHITE, LINE = (0.07, 0.07, 0.08), (0.96, 0.96, 0.94), (0.10, 0.10, 0.10)

def zone_colour(d):
    """Printed colour of the ring holding normalised distance d (0…1)."""
    if d < 0.2: return GOLD
    if d < 0.4: return RED
    if d < 0.6: return BLUE
    if d < 0.8: return BLACK
    return WHITE

def face_colour_map(line_half):
    """color_map entries over d = distance/R: zones with hard edges and thin dividing lines
    centred on each ring boundary (dark, except the white-ish 3/4 line inside the black)."""
    bounds = [0.05] + [i / 10 for i in range(1, 11)]
    entries, prev = [], 0.0
    for b in bounds:
        zc = zone_colour((prev + b) / 2)
        lc = (0.85, 0.85, 0.83) if abs(b - 0.7) < 1e-9 else LINE
        lo, hi = b - line_half, min(b + line_half, 1.0)
        entries += [(prev, zc), (lo, zc), (lo, lc), (hi, lc)]
        prev = hi
    entries.append((1.0, LINE))
    return "\n".join("      [%.6f %s]" % (v, srgb(c)) for v, c in entries)


def score_for(d, r):
    """World Archery scoring: a line cutter scores the higher ring (arrow counts in a ring when
    its centre is within ring radius + arrow radius). Returns (score, label, isX)."""
    if d <= 0.05 + r:
        return 10, "X", True
    for i in range(1, 11):
        if d <= i / 10 + r:
            return 11 - i, str(11 - i), False
    return 0, "M", False


# ---------------------------------------------------------------------------------------------

def build_scene(seed, width, height, debug_markers=False):
    rng = random.Random(seed)
    U = rng.uniform

    face_cm = rng.choice([122, 122, 80, 80, 40])
    R = face_cm / 200.0
    centre = (0.0, FACE_H, 0.0)
    line_mm = rng.uniform(1.0, 2.0)  # printed dividing lines are 1–2 mm wide

    # Paper sheet a little bigger than the face, square or round; off-white.
    paper_round = rng.random() < 0.35
    paper_half = R * U(1.03, 1.12)
    paper_col = (U(0.86, 0.97),) * 2 + (U(0.80, 0.95),)

    # Boss (straw or foam) behind the paper, box or cylinder, with a small offset.
    boss_kind = rng.choice(["straw", "straw", "grey", "blue", "green"])
    boss_round = rng.random() < 0.3
    boss_half = max(paper_half * U(1.08, 1.45), 0.35)
    boss_depth = U(0.25, 0.55)
    boss_off = (U(-0.04, 0.04) * boss_half, U(-0.05, 0.08) * boss_half)
    boss_cx, boss_cy = boss_off[0], FACE_H + boss_off[1]
    boss_bottom = boss_cy - boss_half
    # A face high on a small boss must not float: keep the boss's bottom above the ground.
    boss_bottom = max(boss_bottom, 0.15)

    outdoor = rng.random() < 0.6

    # Camera ---------------------------------------------------------------------------------
    hfov = U(30, 60)
    vfov = 2 * math.degrees(math.atan(math.tan(math.radians(hfov) / 2) * height / width))
    fill = U(0.35, 0.80)
    dist = (2 * R) / (fill * 2 * math.tan(math.radians(vfov) / 2))
    off_axis = math.radians(U(0, 35))
    az = rng.uniform(0, 2 * math.pi)  # direction of the off-axis tilt: yaw and pitch, any sign
    yaw, pitch = off_axis * math.cos(az), off_axis * math.sin(az)
    loc = (dist * math.sin(yaw) * math.cos(pitch), FACE_H + dist * math.sin(pitch),
           -dist * math.cos(yaw) * math.cos(pitch))
    if loc[1] < 0.35:  # not under the ground: look from above instead
        pitch = -pitch
        loc = (loc[0], FACE_H + dist * math.sin(pitch), loc[2])
    # Aim a little off the centre so the face is not always in the middle of the picture.
    half_h = dist * math.tan(math.radians(vfov) / 2)
    slack = max(0.0, half_h * (1 - fill) * 0.6)
    target = (U(-slack, slack) * width / height, FACE_H + U(-slack, slack), 0.0)
    roll = U(-8, 8)
    cam = Camera(loc, target, roll, hfov, width, height)
    # A line thinner than ~1.2 px comes out dashed (the adaptive antialiasing samples miss it);
    # a real lens would blur it to a faint continuous line, so widen it to that instead. The
    # estimate allows for the foreshortening of an off-axis view.
    radius_px_est = fill * height / 2 * math.cos(off_axis)
    line_half = max(line_mm / 1000.0 / 2 / R, 0.6 / radius_px_est)

    # Arrows ---------------------------------------------------------------------------------
    n_arrows = rng.choices([3, 6, rng.randint(0, 12)], weights=[4, 4, 2])[0]
    arrow_mm = round(U(4.0, 9.3), 2)
    r_norm = arrow_mm / 2 / 1000 / R
    spread = U(0.12, 0.45)
    mx, my = U(-0.15, 0.15), U(-0.15, 0.15)  # the group need not be centred
    shaft_palette = [(0.05, 0.05, 0.05), (0.75, 0.76, 0.78), (0.25, 0.26, 0.28), (0.12, 0.12, 0.14),
                     (0.95, 0.35, 0.05), (0.10, 0.55, 0.15), (0.85, 0.85, 0.10), (0.15, 0.25, 0.75),
                     (0.80, 0.10, 0.50), (0.55, 0.05, 0.08)]
    vane_palette = [(0.95, 0.95, 0.95), (0.95, 0.10, 0.10), (1.0, 0.85, 0.0), (0.1, 0.9, 0.2),
                    (1.0, 0.45, 0.0), (0.95, 0.3, 0.75), (0.1, 0.1, 0.1), (0.2, 0.5, 1.0)]
    scene_shaft = rng.choice(shaft_palette)
    scene_vanes = (rng.choice(vane_palette), rng.choice(vane_palette))
    mixed = rng.random() < 0.25
    max_len = 0.55 * dist  # the nock must stay well in front of the camera

    arrows = []
    tries = 0
    while len(arrows) < n_arrows and tries < 2000:
        tries += 1
        kind = rng.random()
        if kind < 0.10:  # a miss: outside the scoring area but in the boss
            ang = U(0, 2 * math.pi)
            rad = U(1.03, min(boss_half / R, 1.35))
            x, y = rad * math.cos(ang), rad * math.sin(ang)
        elif kind < 0.25:  # on (or just beside) a line: the line-cutter rule matters
            ang = U(0, 2 * math.pi)
            b = rng.choice([0.05] + [i / 10 for i in range(1, 11)])
            rad = b + U(-1.5, 1.5) * r_norm
            x, y = rad * math.cos(ang), rad * math.sin(ang)
        else:
            x, y = rng.gauss(mx, spread), rng.gauss(my, spread)
        # x right, y UP here (scene space); the truth's y flips to y-down below.
        if math.hypot(x - boss_off[0] / R, y - boss_off[1] / R) > boss_half / R * 0.95:
            continue
        if any(math.hypot(x - a["_x"], y - a["_y"]) < 2.2 * r_norm for a in arrows):
            continue
        lean = math.radians(U(0, 25) ** 1.0)
        lean_dir = U(0, 2 * math.pi)  # every way, including towards the camera
        out = norm((math.sin(lean) * math.cos(lean_dir), math.sin(lean) * math.sin(lean_dir), -math.cos(lean)))
        length = min(U(0.40, 0.70), max_len)
        shaft = rng.choice(shaft_palette) if mixed else scene_shaft
        vanes = (rng.choice(vane_palette), rng.choice(vane_palette)) if mixed else scene_vanes
        arrows.append({"_x": x, "_y": y, "_out": out, "_len": length, "_shaft": shaft, "_vanes": vanes,
                       "_lean": math.degrees(lean), "_leanDir": math.degrees(lean_dir),
                       "_phase": U(0, 120)})

    old_holes = [(U(-0.9, 0.9), U(-0.9, 0.9), U(0.6, 1.4) * arrow_mm / 2000) for _ in range(rng.randint(0, 8))]

    # Lighting ---------------------------------------------------------------------------------
    ambient = U(0.2, 0.6)
    dim = rng.random() < 0.2
    sun_i = U(0.45, 0.7) if dim else U(0.9, 1.4)
    temp = U(-1, 1)  # warm (+) or cool (−) white
    light_col = (1.0, 1.0 - 0.06 * abs(temp), 1.0 - 0.15 * temp) if temp > 0 else (1.0 + 0.08 * temp, 1.0 + 0.03 * temp, 1.0)
    light_col = tuple(c * sun_i for c in light_col)
    sun_az = math.radians(U(-75, 75))  # mostly from the front half, so the face is lit
    sun_el = math.radians(U(20, 70))
    sun_dist = 60.0 if outdoor else 8.0
    sun_pos = (sun_dist * math.cos(sun_el) * math.sin(sun_az), FACE_H + sun_dist * math.sin(sun_el),
               -sun_dist * math.cos(sun_el) * math.cos(sun_az))
    soft = U(0.02, 0.05) * sun_dist  # area light size: soft, not razor shadows

    # ---------------------------------------------------------------------------------------
    L = []
    w = L.append
    w("// archery scene, seed %d, written by tools/povray/archery_scene.py\n" % seed)
    w("#version 3.7;\nglobal_settings { assumed_gamma 1.0 ambient_light rgb <1,1,1> max_trace_level 6 }\n")
    # Ambient plays the part of sky light / hall light; diffuse the sun.
    w("#default { finish { ambient %.3f diffuse %.3f } }\n" % (ambient * 0.5, 0.75))
    w(cam.pov())
    w("light_source { %s color rgb <%.3f,%.3f,%.3f>\n  area_light <%.3f,0,0>, <0,%.3f,0>, 3, 3 adaptive 0 circular orient\n}\n"
      % (pv(sun_pos), *light_col, soft, soft))
    # A weak shadowless fill from the camera side, as the sky/hall bounce light would give.
    w("light_source { %s color rgb %.3f shadowless }\n" % (pv(add(loc, (0, 2, -1))), U(0.1, 0.3)))

    if outdoor:
        w("sky_sphere { pigment { gradient y color_map { [0 srgb <0.85,0.88,0.92>] [0.25 srgb <%.2f,%.2f,0.95>] [1 srgb <0.25,0.45,0.85>] } } }\n"
          % (U(0.45, 0.7), U(0.6, 0.8)))
        g = (U(0.15, 0.35), U(0.40, 0.60), U(0.10, 0.22))
        w("plane { y, 0 pigment { granite scale 0.3 color_map { [0 %s] [1 %s] } } finish { ambient 0.05 diffuse 0.8 } }\n"
          % (srgb(g), srgb(tuple(c * 0.6 for c in g))))
        # A tree line far away so the background is not empty.
        w("box { <-80,0,45> <80,%.1f,50> pigment { bozo scale <3,2,3> color_map { [0 srgb <0.10,0.25,0.08>] [1 srgb <0.20,0.35,0.12>] } } }\n" % U(6, 12))
    else:
        wall = rng.choice([(0.85, 0.83, 0.78), (0.75, 0.78, 0.80), (0.92, 0.92, 0.90), (0.55, 0.60, 0.45)])
        w("plane { y, 0 pigment { granite scale 0.5 color_map { [0 srgb <0.35,0.36,0.38>] [1 srgb <0.45,0.45,0.47>] } } }\n")
        w("plane { -z, -%.2f pigment { %s } }\n" % (U(1.5, 5.0), srgb(wall)))
        w("plane { -y, -%.2f pigment { srgb <0.9,0.9,0.9> } }\n" % U(4, 6))

    # Boss and stand.
    boss_tex = {
        "straw": "pigment { granite scale <0.02,0.08,0.02> turbulence 0.6 color_map { [0 srgb <0.72,0.58,0.30>] [0.6 srgb <0.82,0.70,0.42>] [1 srgb <0.55,0.42,0.20>] } }",
        "grey": "pigment { granite scale 0.01 color_map { [0 srgb <0.55,0.56,0.57>] [1 srgb <0.68,0.68,0.70>] } }",
        "blue": "pigment { granite scale 0.01 color_map { [0 srgb <0.10,0.25,0.55>] [1 srgb <0.18,0.35,0.68>] } }",
        "green": "pigment { granite scale 0.01 color_map { [0 srgb <0.10,0.40,0.20>] [1 srgb <0.20,0.52,0.28>] } }",
    }[boss_kind]
    top = boss_cy + boss_half
    if boss_round:
        w("cylinder { <%.4f,%.4f,0.001>, <%.4f,%.4f,%.4f>, %.4f %s }\n"
          % (boss_cx, boss_cy, boss_cx, boss_cy, boss_depth, boss_half, boss_tex))
    else:
        w("box { <%.4f,%.4f,0.001>, <%.4f,%.4f,%.4f> %s }\n"
          % (boss_cx - boss_half, boss_bottom, boss_cx + boss_half, top, boss_depth, boss_tex))
    wood = "pigment { wood scale 0.05 rotate 90*x color_map { [0 srgb <0.55,0.38,0.20>] [1 srgb <0.42,0.28,0.14>] } }"
    for sx in (-1, 1):  # two legs beside the boss, leaning back, and a rear leg
        lx = boss_cx + sx * (boss_half + 0.03)
        w("cylinder { <%.3f,0,-0.15>, <%.3f,%.3f,%.3f>, 0.025 %s }\n" % (lx, lx, top + 0.05, boss_depth * 0.5, wood))
    w("cylinder { <%.3f,0,%.3f>, <%.3f,%.3f,%.3f>, 0.025 %s }\n" % (boss_cx, boss_depth + 0.8, boss_cx, top, boss_depth * 0.5, wood))
    if boss_bottom > 0.02:  # the shelf the boss stands on
        w("box { <%.3f,%.3f,-0.05>, <%.3f,%.3f,%.3f> %s }\n"
          % (boss_cx - boss_half - 0.05, boss_bottom - 0.04, boss_cx + boss_half + 0.05, boss_bottom, boss_depth + 0.05, wood))

    # Paper, face, old holes. The printed side is a little glossy-free matte.
    if paper_round:
        w("disc { <0,%.4f,-0.0003>, <0,0,-1>, %.4f pigment { %s } }\n" % (FACE_H, paper_half, srgb(paper_col)))
    else:
        w("box { <%.4f,%.4f,-0.0003>, <%.4f,%.4f,0.0> pigment { %s } }\n"
          % (-paper_half, FACE_H - paper_half, paper_half, FACE_H + paper_half, srgb(paper_col)))
    w("disc { <0,0,0>, <0,0,-1>, %.5f\n  pigment { function { min(1, sqrt(x*x + y*y) / %.6f) }\n    color_map {\n%s\n    }\n  }\n  translate <0,%.4f,-0.0006>\n}\n"
      % (R, R, face_colour_map(line_half), FACE_H))
    for hx, hy, hr in old_holes:
        w("disc { <%.5f,%.5f,-0.0008>, <0,0,-1>, %.5f pigment { srgb <0.12,0.10,0.08> } }\n" % (hx * R, FACE_H + hy * R, hr))
    # Pins holding the paper at the corners.
    for cx, cy in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
        k = 0.7 if paper_round else 0.96
        w("sphere { <%.4f,%.4f,-0.004>, 0.006 pigment { srgb <0.9,0.1,0.1> } finish { phong 0.5 } }\n"
          % (cx * paper_half * k, FACE_H + cy * paper_half * k))

    # Arrows: built along local +z (impact at the origin, nock at +len), then a matrix whose rows
    # are the images of the local axes turns local +z onto the outward shaft direction.
    rs = arrow_mm / 2000.0
    truth_arrows = []
    for i, a in enumerate(arrows):
        out = a["_out"]
        ax = norm(cross(out, (0.0, 1.0, 0.0)) if abs(out[1]) < 0.9 else cross(out, (1.0, 0.0, 0.0)))
        ay = cross(out, ax)
        P = (a["_x"] * R, FACE_H + a["_y"] * R, 0.0)
        ln = a["_len"]
        vl, vh = U(0.045, 0.075), U(0.010, 0.016)  # vane length and height
        z0 = ln - 0.025 - vl  # vane leading edge (towards the point)
        w("union { // arrow %d\n" % i)
        w("  cylinder { <0,0,-0.05>, <0,0,%.4f>, %.5f pigment { %s } finish { phong 0.6 phong_size 40 } }\n"
          % (ln, rs, srgb(a["_shaft"])))
        # Nock: a slightly fatter plastic cap.
        w("  cylinder { <0,0,%.4f>, <0,0,%.4f>, %.5f pigment { %s } finish { phong 0.4 } }\n"
          % (ln, ln + 0.018, rs * 1.15 + 0.0005, srgb(rng.choice(vane_palette))))
        for k in range(3):
            col = a["_vanes"][0] if k == 0 else a["_vanes"][1]  # one cock vane in another colour
            w("  prism { linear_sweep linear_spline -0.0004, 0.0004, 5, <%.5f,%.5f>, <%.5f,%.5f>, <%.5f,%.5f>, <%.5f,%.5f>, <%.5f,%.5f>\n"
              "    pigment { %s } rotate z*%.2f }\n"
              % (rs * 0.8, z0, rs + vh * 0.35, z0 + vl * 0.25, rs + vh, z0 + vl, rs * 0.8, z0 + vl, rs * 0.8, z0,
                 srgb(col), a["_phase"] + 120 * k))
        w("  matrix < %.6f,%.6f,%.6f, %.6f,%.6f,%.6f, %.6f,%.6f,%.6f, %.6f,%.6f,%.6f >\n}\n"
          % (*ax, *ay, *out, *P))
        if debug_markers:
            # A flat magenta ring on the face around the impact (a disc lying in the face plane, so
            # its visible centroid is the impact itself, unlike a bead half sunk in the boss).
            w("disc { %s, <0,0,-1>, %.5f, %.5f pigment { rgb <1,0,1> } finish { ambient 1 diffuse 0 } no_shadow }\n"
              % (pv(add(P, (0, 0, -0.001))), max(rs * 3, 0.008), max(rs * 1.5, 0.004)))

        nx, ny = a["_x"], -a["_y"]  # truth is y DOWN
        d = math.hypot(nx, ny)
        score, label, is_x = score_for(d, r_norm)
        ipx = cam.project(P)
        nock = cam.project(add(P, mul(out, ln + 0.018)))
        truth_arrows.append({
            "normalizedX": round(nx, 6), "normalizedY": round(ny, 6), "distanceFromCenter": round(d, 6),
            "score": score, "label": label, "isXRing": is_x,
            "impactPx": [round(ipx[0], 2), round(ipx[1], 2)] if ipx else None,
            "nockPx": [round(nock[0], 2), round(nock[1], 2)] if nock else None,
            "leanDeg": round(a["_lean"], 2), "leanDirectionDeg": round(a["_leanDir"], 2),
            "outwardDirection": [round(c, 5) for c in out], "visibleLengthM": round(ln, 4),
            "shaftColour": a["_shaft"],
        })
    if debug_markers:
        w("disc { <0,%.4f,-0.001>, <0,0,-1>, %.5f pigment { rgb <0,1,1> } finish { ambient 1 diffuse 0 } no_shadow }\n" % (FACE_H, R * 0.015))

    # Face outline in the image: √(area/π) like Reelwork's TargetFace.radiusPx.
    rim = [cam.project((R * math.cos(t), FACE_H + R * math.sin(t), 0.0)) for t in
           (2 * math.pi * k / 128 for k in range(128))]
    area = 0.5 * abs(sum(rim[k][0] * rim[(k + 1) % 128][1] - rim[(k + 1) % 128][0] * rim[k][1] for k in range(128)))
    cpx = cam.project(centre)
    truth = {
        "generator": "tools/povray/archery_scene.py", "seed": seed, "width": width, "height": height,
        "convention": "normalised face coords: x right, y DOWN, centre 0, face radius 1; impact = shaft axis ∩ face plane",
        "faceDiameterCm": face_cm, "arrowDiameterMm": arrow_mm, "arrowRadiusInFaceRadii": r_norm,
        "faceCenterPx": [round(cpx[0], 2), round(cpx[1], 2)], "faceRadiusPx": round(math.sqrt(area / math.pi), 2),
        "faceBoundingBoxPx": [round(min(p[0] for p in rim), 1), round(min(p[1] for p in rim), 1),
                              round(max(p[0] for p in rim), 1), round(max(p[1] for p in rim), 1)],
        "camera": dict(cam.as_json(), distanceM=dist, offAxisDeg=math.degrees(off_axis),
                       yawDeg=math.degrees(yaw), pitchDeg=math.degrees(pitch), faceFillOfHeight=fill),
        "scene": {"outdoor": outdoor, "boss": boss_kind, "bossRound": boss_round, "paperRound": paper_round,
                  "ambient": ambient, "dim": dim, "oldHoles": len(old_holes)},
        "arrows": truth_arrows,
        # Holes of earlier ends (not arrows of this end): where they are, so a benchmark can tell
        # a phantom on an old hole from one elsewhere. The scene's y is up, the truth's down.
        "oldHoles": [{"normalizedX": round(hx, 5), "normalizedY": round(-hy, 5)} for hx, hy, _ in old_holes],
        "total": sum(a["score"] for a in truth_arrows),
        "xCount": sum(1 for a in truth_arrows if a["isXRing"]),
    }
    return "".join(L), truth


def render(pov_path, png_path, width, height, antialias):
    run_povray(pov_path, png_path, width, height, antialias)
    if not os.path.exists(png_path):
        raise RuntimeError("povray wrote no %s" % png_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=960)
    ap.add_argument("--antialias", type=float, default=0.15, help="POV-Ray +A threshold")
    ap.add_argument("--debug-markers", action="store_true",
                    help="draw magenta rings round the impacts and a cyan dot on the centre (checks the projection)")
    ap.add_argument("--no-render", action="store_true", help="write scene.pov and truth.json only")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    pov, truth = build_scene(args.seed, args.width, args.height, args.debug_markers)
    pov_path = os.path.join(args.out, "scene.pov")
    with open(pov_path, "w") as f:
        f.write(pov)
    png = os.path.join(args.out, "frame.png")
    if not args.no_render:
        t0 = time.time()
        # Write to a temporary name first so a killed render never leaves a half frame that a
        # cache would take for a finished one.
        tmp = os.path.join(args.out, "frame.tmp.png")
        render(pov_path, tmp, args.width, args.height, args.antialias)
        os.replace(tmp, png)
        truth["renderSeconds"] = round(time.time() - t0, 2)
    with open(os.path.join(args.out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)
    print("seed %d: %s cm face, %d arrows, total %d, %s" % (
        args.seed, truth["faceDiameterCm"], len(truth["arrows"]), truth["total"],
        ("rendered in %.1f s" % truth["renderSeconds"]) if "renderSeconds" in truth else "not rendered"),
        file=sys.stderr)


if __name__ == "__main__":
    main()
