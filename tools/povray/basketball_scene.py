#!/usr/bin/env python3
"""Ray-traced basketball sessions with known truth, for measuring Reelwork's basketball analysis on
footage it did not make itself (issue 31).

Shares nothing with Fixtures/BasketballScenes (the project's Swift rasteriser, a flat side view):
POV-Ray traces a hoop with a backboard, a torus rim and a diamond-mesh net, a ball with seams, a
shooter, floor, walls and lights, seen by a perspective camera placed at random beside the court
(height, distance, yaw off square, roll, lens). The ball's path is scripted piece by piece
(hand → release → flight → rim, board or net → floor), and the truth is written from that script.

    basketball_scene.py --seed N --out DIR [--width W --height H --fps F] [--no-render]

writes DIR/scene.pov, DIR/frames/*.png, DIR/clip.mp4 (H.264 or HEVC, 4:2:0, the encoder's quality
and the noise drawn from the seed), DIR/options.json (the hoop's two ends as a person would click
them) and DIR/truth.json. Without --width/--height/--fps they are drawn from the seed too.

World units are feet; POV-Ray's axes (left-handed): x along the court's side line, y up, z away
from the camera. The point on the floor under the rim's centre is the origin.

Truth per attempt: releaseTime (the ball leaves the hand), rimTime (the ball's centre first comes
down to a ball's radius above the rim's height after the apex), made, shotType by the shooter's
feet (3PT at or beyond threePointDistanceFt), distanceFt (feet to the point under the rim), kind.
"""
import argparse
import glob
import json
import math
import os
import random
import shutil
import sys
import time

from povray_common import Camera, add, cross, dot, mul, norm, phone_encode, pv, run_povray, srgb, sub, widen_to_fit

G = 32.17           # ft/s²
RIM_H = 10.0
RIM_R = 0.75        # 18 in inside diameter
TUBE = 0.035
BALL_R = 0.39       # size 7: 9.4 in
BOARD_OFFSET = 1.25  # rim centre to the board's face
NET_DEPTH = 1.5
NET_LEVELS = [(0.0, RIM_R), (0.5, 0.62), (1.0, 0.52), (NET_DEPTH, 0.45)]
THREE_PT = 22.15    # FIBA, the analysis's default
BLUR_COPIES = 7     # instants of the exposure drawn for a moving ball (motion blur)

KINDS = [  # (kind, made, weight)
    ("swish", True, 5), ("rim_in", True, 3), ("bank_in", True, 2),
    ("rim_out", False, 4), ("in_and_out", False, 1), ("airball_short", False, 1), ("off_board", False, 1),
]


# ---------------------------------------------------------------------------------------------
# The ball's path: segments, each a function of time since its start.

class Segment:
    def __init__(self, duration, at, visible=True):
        self.duration, self.at, self.visible = duration, at, visible


def ballistic(p0, v0):
    return lambda t: (p0[0] + v0[0] * t, p0[1] + v0[1] * t - G * t * t / 2, p0[2] + v0[2] * t)


def ballistic_velocity(v0, t):
    return (v0[0], v0[1] - G * t, v0[2])


def hermite(p0, v0, p1, v1, T):
    def at(t):
        s = t / T
        h00, h10, h01, h11 = 2 * s**3 - 3 * s**2 + 1, s**3 - 2 * s**2 + s, -2 * s**3 + 3 * s**2, s**3 - s**2
        return tuple(h00 * p0[i] + h10 * T * v0[i] + h01 * p1[i] + h11 * T * v1[i] for i in range(3))
    return at


def time_to_height(p0, v0, y, descending=True):
    """When a ballistic flight from p0 with v0 reaches height y (the later root when descending)."""
    a, b, c = -G / 2, v0[1], p0[1] - y
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    r = math.sqrt(disc)
    roots = sorted([(-b + r) / (2 * a), (-b - r) / (2 * a)])
    roots = [t for t in roots if t > 1e-6]
    if not roots:
        return None
    return roots[-1] if descending else roots[0]


def aim(p0, target, angle_deg):
    """The launch velocity from p0 that passes through target with the given elevation angle."""
    dx, dz = target[0] - p0[0], target[2] - p0[2]
    s = math.hypot(dx, dz)
    dy = target[1] - p0[1]
    a = math.radians(angle_deg)
    denom = 2 * math.cos(a) ** 2 * (s * math.tan(a) - dy)
    if denom <= 0:
        return None
    v = math.sqrt(G * s * s / denom)
    vh = v * math.cos(a)
    return (vh * dx / s, v * math.sin(a), vh * dz / s), s / vh


def velocity_to(p0, target, T):
    """The launch velocity from p0 that reaches target after T seconds."""
    return ((target[0] - p0[0]) / T, (target[1] - p0[1] + G * T * T / 2) / T, (target[2] - p0[2]) / T)


def falls_through_ring(p0, v0, until):
    """Whether a free flight comes down through the ring's opening (it would be a make)."""
    t = time_to_height(p0, v0, RIM_H)
    if t is None or t > until:
        return False
    p = ballistic(p0, v0)(t)
    return math.hypot(p[0], p[2]) < RIM_R + BALL_R


class Path:
    def __init__(self):
        self.segments, self.t = [], 0.0

    def add(self, duration, at, visible=True):
        self.segments.append((self.t, Segment(duration, at, visible)))
        self.t += duration

    def at(self, t):
        for start, seg in self.segments:
            if t < start + seg.duration:
                return seg.at(t - start) if seg.visible else None
        return None

    def floor_bounces(self, p0, v0, seconds, rng):
        """Free flight from p0 with its bounces on the floor, for `seconds`."""
        end = self.t + seconds
        p, v = p0, v0
        while self.t < end - 1e-6:
            t = time_to_height(p, v, BALL_R)
            if t is None or t < 0.02:
                # Too little bounce left: rolls along the floor.
                q, vh = (p[0], BALL_R, p[2]), (v[0] * 0.9, 0.0, v[2] * 0.9)
                self.add(end - self.t, lambda s, q=q, vh=vh: (q[0] + vh[0] * s, BALL_R, q[2] + vh[2] * s))
                return
            t = min(t, end - self.t)
            self.add(t, ballistic(p, v))
            landing = ballistic_velocity(v, t)
            p = ballistic(p, v)(t)
            e = rng.uniform(0.5, 0.65)
            v = (landing[0] * 0.8, -landing[1] * e, landing[2] * 0.8)


def through_net(path, entry, v_entry, rng):
    """The ball drops through the net (slowed and centred by it), then falls to the floor."""
    exit_p = (entry[0] * 0.3, RIM_H - NET_DEPTH - 0.1, entry[2] * 0.3)
    T = rng.uniform(0.2, 0.3)
    v_in = (v_entry[0] * 0.5, v_entry[1], v_entry[2] * 0.5)
    v_out = (v_entry[0] * 0.1, -rng.uniform(5, 8), v_entry[2] * 0.1)
    path.add(T, hermite(entry, v_in, exit_p, v_out, T))
    path.floor_bounces(exit_p, v_out, rng.uniform(0.8, 1.3), rng)
    return path.t - T  # when the ball entered the net


def drop_in(path, start, inside, T, rng):
    """From `start` (on the rim, or off the board), a short flight down through the ring at
    `inside` taking T seconds, then through the net."""
    v = velocity_to(start, inside, T)
    path.add(T, ballistic(start, v))
    through_net(path, inside, ballistic_velocity(v, T), rng)


# ---------------------------------------------------------------------------------------------
# One attempt: the hold, the rise to the release, the flight and what follows.

def attempt(path, rng, side, feet, kind):
    """Appends one attempt to `path`; returns its truth (times relative to the clip)."""
    hoop = (0.0, RIM_H, 0.0)
    to_hoop = norm((hoop[0] - feet[0], 0.0, hoop[2] - feet[2]))
    hold = add(add(feet, mul(to_hoop, 0.7)), (0.0, rng.uniform(3.8, 4.6), 0.0))
    release = add(add(feet, mul(to_hoop, rng.uniform(0.5, 1.0))), (0.0, rng.uniform(7.0, 9.0), 0.0))
    angle = rng.uniform(46, 58)
    lateral = norm(cross(to_hoop, (0.0, 1.0, 0.0)))
    centre_at = lambda along, across, y: add(add(add(hoop, mul(to_hoop, along)), mul(lateral, across)), (0.0, y - RIM_H, 0.0))

    if kind == "swish":
        target = centre_at(rng.uniform(-0.12, 0.12), rng.uniform(-0.12, 0.12), RIM_H)
    elif kind in ("rim_in", "rim_out", "in_and_out"):
        front = rng.random() < 0.6 or kind == "in_and_out"
        target = centre_at(-0.45 if front else 0.4, rng.uniform(-0.15, 0.15), RIM_H + 0.3)
    elif kind == "airball_short":
        target = centre_at(-rng.uniform(1.4, 2.6), rng.uniform(-0.4, 0.4), RIM_H)
    elif kind == "bank_in":
        target = centre_at(BOARD_OFFSET - BALL_R, rng.uniform(-0.5, 0.5), rng.uniform(10.9, 11.8))
    else:  # off_board: hits the board low or wide and falls outside
        target = centre_at(BOARD_OFFSET - BALL_R, rng.choice([-1, 1]) * rng.uniform(1.0, 2.2), rng.uniform(10.6, 12.0))
    launch = aim(release, target, angle)
    if launch is None:
        return None
    v0, t_flight = launch

    start = path.t
    path.add(rng.uniform(0.3, 0.6), lambda t, p=hold: p)
    rise = rng.uniform(0.22, 0.35)
    path.add(rise, hermite(hold, (0.0, 0.0, 0.0), release, v0, rise))
    release_time = path.t
    path.add(t_flight, ballistic(release, v0))
    v_hit = ballistic_velocity(v0, t_flight)
    made = kind in ("swish", "rim_in", "bank_in")

    if kind == "swish":
        through_net(path, target, v_hit, rng)
    elif kind == "rim_in":
        # A hop off the rim, then down through the ring near its centre.
        T = rng.uniform(0.2, 0.35)
        drop_in(path, target, centre_at(rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2), RIM_H), T, rng)
    elif kind == "bank_in":
        T = rng.uniform(0.18, 0.3)
        drop_in(path, target, centre_at(rng.uniform(-0.15, 0.15), rng.uniform(-0.15, 0.15), RIM_H), T, rng)
    elif kind == "in_and_out":
        # Drops inside the ring a little, then pops up and out over its far side or a flank.
        dip = centre_at(rng.uniform(-0.1, 0.15), rng.uniform(-0.1, 0.1), RIM_H - rng.uniform(0.15, 0.3))
        T = 0.15
        path.add(T, hermite(target, v_hit, dip, (0.0, -2.0, 0.0), T))
        out = add(mul(to_hoop, rng.choice([-1, 1]) * rng.uniform(2.5, 4.0)), mul(lateral, rng.uniform(-2.0, 2.0)))
        v = (out[0], rng.uniform(6, 9), out[2])
        if falls_through_ring(dip, v, 2.0):
            return None
        path.floor_bounces(dip, v, rng.uniform(1.1, 1.6), rng)
    elif kind == "rim_out":
        out = add(mul(to_hoop, -rng.uniform(2.5, 6.0)), mul(lateral, rng.uniform(-3.0, 3.0)))
        v = (out[0], rng.uniform(3, 9), out[2])
        if falls_through_ring(target, v, 2.0):
            return None
        path.floor_bounces(target, v, rng.uniform(1.1, 1.6), rng)
    elif kind == "off_board":
        along = dot(v_hit, to_hoop)
        v = add(sub(v_hit, mul(to_hoop, 1.5 * along)), (0.0, 0.0, 0.0))
        if falls_through_ring(target, v, 2.0):
            return None
        path.floor_bounces(target, v, rng.uniform(1.1, 1.6), rng)
    else:  # airball_short
        path.floor_bounces(target, v_hit, rng.uniform(1.0, 1.4), rng)

    # The rim time: the centre first down to a ball's radius above the rim's height after the apex.
    apex = release_time + v0[1] / G
    rim_time = None
    t = apex
    while t < path.t:
        p = path.at(t)
        if p is not None and p[1] <= RIM_H + BALL_R:
            rim_time = t
            break
        t += 0.002
    distance = math.hypot(feet[0], feet[2])
    # The ball is picked up (out of sight) before the next attempt.
    path.add(rng.uniform(0.3, 0.6), lambda t: None, visible=False)
    return {"kind": kind, "made": made, "releaseTime": round(release_time, 3),
            "rimTime": None if rim_time is None else round(rim_time, 3),
            "shotType": "3PT" if distance >= THREE_PT else "2PT", "distanceFt": round(distance, 2),
            "start": round(start, 3), "feet": [round(feet[0], 3), round(feet[2], 3)],
            "releasePoint": [round(c, 3) for c in release], "releaseAngleDeg": round(angle, 1),
            "apexFt": round(release[1] + v0[1] ** 2 / (2 * G), 2)}


def session(rng, side):
    """A session of 3–5 attempts from spots on the shooter's side of the hoop."""
    path, truth = Path(), []
    count = rng.randint(3, 4)
    kinds, weights = [k for k, _, _ in KINDS], [w for _, _, w in KINDS]
    while len(truth) < count:
        # Distances away from the three-point line by at least half a foot (the truth is by the
        # feet; where exactly a foot touches the line is not what this measures).
        while True:
            d = rng.uniform(6.0, 26.0)
            if abs(d - THREE_PT) >= 0.5:
                break
        bearing = math.radians(rng.uniform(-25, 25))  # 0 = square to the camera's view
        feet = (-side * d * math.cos(bearing), 0.0, d * math.sin(bearing))
        kind = rng.choices(kinds, weights)[0]
        mark = len(path.segments), path.t
        shot = attempt(path, rng, side, feet, kind)
        if shot is None:
            path.segments, path.t = path.segments[:mark[0]], mark[1]
            continue
        truth.append(shot)
    return path, truth


# ---------------------------------------------------------------------------------------------
# The scene.

def camera_for(rng, side, truth, width, height):
    """Beside the court, roughly square to the shots, far enough back that hoop and shooters fit."""
    xs = [0.0, side * (BOARD_OFFSET + 0.5)] + [s["feet"][0] for s in truth]
    mid_x = (min(xs) + max(xs)) / 2
    yaw = math.radians(rng.uniform(-22, 22))
    dist = rng.uniform(28, 48)
    height_ft = rng.uniform(4.0, 13.0)
    look = (mid_x + rng.uniform(-2, 2), rng.uniform(6.5, 9.0), 0.0)
    location = (look[0] + dist * math.sin(yaw), height_ft, -dist * math.cos(yaw))
    # Fit the frame around the shooters, the hoop with its board and every apex, with a margin.
    keys = [(0.0, RIM_H + 3.8, 0.0), (side * (BOARD_OFFSET + 0.3), 0.0, 0.0)]
    for s in truth:
        keys += [(s["feet"][0], 0.0, s["feet"][1]), tuple(s["releasePoint"])]
        keys.append((s["feet"][0] / 2, s["apexFt"] + BALL_R, s["feet"][1] / 2))
    roll = rng.uniform(-2.5, 2.5)
    hfov = widen_to_fit(location, look, roll, 30.0, width, height, keys, (0.04, 0.96, 0.03, 0.97), step=1.08, tries=30)
    zoom = rng.uniform(0.0, 0.12)  # a little looser framing now and then
    return Camera(location, look, roll, min(hfov * (1 + zoom), 95.0), width, height)


def rim_ends(cam):
    """The rim's leftmost and rightmost points in the image (its outer edge): where a person clicks."""
    pts = [cam.project((math.cos(a) * (RIM_R + TUBE), RIM_H, math.sin(a) * (RIM_R + TUBE)))
           for a in (i * math.pi / 180 for i in range(360))]
    left, right = min(pts, key=lambda p: p[0]), max(pts, key=lambda p: p[0])
    return left, right


def scene_pov(rng, side, path, truth, cam, fps, frames, light):
    L = []
    w = L.append
    w("// basketball session, written by tools/povray/basketball_scene.py\n#version 3.7;\n")
    w("global_settings { assumed_gamma 1.0 ambient_light srgb <%.3f,%.3f,%.3f> }\n" % light["ambient"])
    w(cam.pov())
    for (pos, colour) in light["lamps"]:
        w("light_source { %s %s }\n" % (pv(pos), srgb(colour)))
    # Floor: boards of wood, one of several woods and finishes.
    wood = rng.choice([(0.72, 0.52, 0.30), (0.80, 0.62, 0.40), (0.62, 0.42, 0.25), (0.55, 0.50, 0.45), (0.30, 0.40, 0.55)])
    w("plane { y, 0 pigment { gradient x color_map { [0 %s] [0.5 %s] [1 %s] } scale 0.25 turbulence 0.05 }"
      " finish { specular 0.3 roughness 0.02 } }\n" % (srgb(wood), srgb(tuple(c * 0.9 for c in wood)), srgb(wood)))
    # Walls behind (beyond the hoop, seen by the camera) with a few boxes of clutter.
    wall = rng.choice([(0.8, 0.8, 0.78), (0.45, 0.55, 0.7), (0.6, 0.6, 0.62), (0.85, 0.8, 0.65), (0.3, 0.32, 0.35), (0.7, 0.3, 0.25)])
    back = rng.uniform(12, 30)
    w("plane { z, %.2f pigment { %s } finish { diffuse 0.8 } }\n" % (back, srgb(wall)))
    w("plane { x, %.2f pigment { %s } }\n" % (side * rng.uniform(14, 24), srgb(tuple(c * 0.85 for c in wall))))
    for _ in range(rng.randint(0, 6)):
        c = rng.choice([(0.2, 0.3, 0.8), (0.1, 0.6, 0.2), (0.9, 0.9, 0.9), (0.1, 0.1, 0.1), (0.8, 0.7, 0.1), (0.75, 0.4, 0.2)])
        x0, y0 = rng.uniform(-30, 30), rng.uniform(0, 12)
        w("box { <%.2f,%.2f,%.2f>, <%.2f,%.2f,%.2f> pigment { %s } }\n" % (x0, y0, back - 0.5, x0 + rng.uniform(1, 6), y0 + rng.uniform(0.5, 3), back - 0.1, srgb(c)))
    # The stanchion, the board and its frame, the rim and its bracket.
    board_colour = rng.choice(["glass", "white", "white"])
    bx = side * BOARD_OFFSET
    pole_x = side * (BOARD_OFFSET + rng.uniform(2.5, 4.0))
    pole = rng.choice([(0.1, 0.1, 0.12), (0.1, 0.2, 0.5), (0.5, 0.5, 0.52), (0.7, 0.1, 0.1)])
    w("cylinder { <%.2f,0,0>, <%.2f,12.2,0>, 0.25 pigment { %s } finish { specular 0.4 } }\n" % (pole_x, pole_x, srgb(pole)))
    w("box { <%.2f,11.6,-0.2>, <%.2f,12.0,0.2> pigment { %s } }\n" % (min(pole_x, bx), max(pole_x, bx), srgb(pole)))
    bottom = rng.uniform(9.35, 9.6)
    board = "pigment { srgbt <0.85,0.9,0.95,0.75> } finish { specular 0.6 reflection 0.08 }" if board_colour == "glass" else "pigment { srgb 0.95 }"
    w("box { <%.3f,%.3f,-3>, <%.3f,%.3f,3> %s }\n" % (bx, bottom, bx + side * 0.1, bottom + 3.5, board))
    # The target square above the rim and the board's border.
    edge = rng.choice([(0.9, 0.1, 0.1), (0.05, 0.05, 0.05), (0.1, 0.2, 0.7)])
    fx = bx - side * 0.01
    for (y0, y1, z0, z1) in [(10.15, 10.2, -0.98, 0.98), (11.6, 11.65, -0.98, 0.98), (10.15, 11.65, -0.98, -0.93), (10.15, 11.65, 0.93, 0.98),
                             (bottom, bottom + 0.08, -3, 3), (bottom + 3.42, bottom + 3.5, -3, 3), (bottom, bottom + 3.5, -3, -2.92), (bottom, bottom + 3.5, 2.92, 3)]:
        w("box { <%.3f,%.3f,%.3f>, <%.3f,%.3f,%.3f> pigment { %s } }\n" % (fx - side * 0.005, y0, z0, fx, y1, z1, srgb(edge)))
    rim = rng.choice([(0.95, 0.35, 0.05), (0.85, 0.25, 0.05), (0.9, 0.4, 0.1)])
    w("torus { %.3f, %.3f translate <0,%.3f,0> pigment { %s } finish { specular 0.5 metallic } }\n" % (RIM_R + TUBE, TUBE, RIM_H, srgb(rim)))
    w("box { <%.3f,%.3f,-0.25>, <%.3f,%.3f,0.25> pigment { %s } }\n" % (side * (RIM_R + TUBE), RIM_H - 0.05, bx, RIM_H + 0.02, srgb(rim)))
    # The ball's and the net's states per frame.
    positions, nets = [], []
    net_kick = []  # times the ball entered the net (it sways after)
    for s in truth:
        if s["made"]:
            net_kick.append(s["rimTime"] or 0.0)
    shutter = rng.uniform(0.3, 0.9)  # the exposure's share of a frame (motion blur)
    for f in range(frames):
        t = f / fps
        subs = [path.at(t + shutter / fps * (k / (BLUR_COPIES - 1) - 0.5)) for k in range(BLUR_COPIES)]
        positions.append(subs)
        sway = 0.0
        for k in net_kick:
            if t >= k:
                sway += 0.25 * math.exp(-(t - k) / 0.6) * math.sin(2 * math.pi * 1.8 * (t - k))
        nets.append(sway)
    w("#declare Balls = array[%d][%d] {\n" % (frames, BLUR_COPIES))
    w(",\n".join("{" + ", ".join(pv(p) if p else "<0,-100,0>" for p in subs) + "}" for subs in positions))
    w("}\n")
    w("#declare NetSway = array[%d] {%s}\n" % (frames, ", ".join("%.4f" % s for s in nets)))
    ball = rng.choice([(0.85, 0.38, 0.12), (0.78, 0.30, 0.10), (0.62, 0.30, 0.14), (0.92, 0.48, 0.18), (0.70, 0.36, 0.20)])
    w("#declare BallColour = %s;\n" % srgb(ball))
    w("""#declare Ball = union {
  sphere { 0, %.3f pigment { BallColour } finish { specular 0.15 roughness 0.05 } normal { bumps 0.15 scale 0.02 } }
  torus { %.3f, 0.007 pigment { rgb 0.02 } }
  torus { %.3f, 0.007 rotate x*90 pigment { rgb 0.02 } }
  torus { %.3f, 0.007 rotate z*90 pigment { rgb 0.02 } }
}
""" % (BALL_R, BALL_R, BALL_R, BALL_R))
    w("""#declare Spin = frame_number * 37;
#declare Last = %d;
#declare Mid = Balls[frame_number][div(Last, 2)];
#if (vlength(Balls[frame_number][0] - Balls[frame_number][Last]) < 0.05)
  object { Ball rotate <Spin, Spin * 0.3, 0> translate Mid }
#else
  // Motion blur: the ball where it is at instants through the exposure, close enough together to
  // make one smear. None of them casts a shadow (each would darken the others); a hidden ball at
  // the middle instant casts the one shadow.
  #for (K, 0, Last)
    object { Ball rotate <Spin, Spin * 0.3, 0> translate Balls[frame_number][K] no_shadow }
  #end
  sphere { Mid, %.3f no_image pigment { rgb 0 } }
#end
""" % (BLUR_COPIES - 1, 0.85 * BALL_R))
    # The net: a diamond mesh from the rim down, each level turned half a cell from the one above,
    # swaying after a make.
    cells = 12
    pts = []
    for level, (depth, radius) in enumerate(NET_LEVELS):
        row = []
        for i in range(cells):
            a = 2 * math.pi * (i + 0.5 * (level % 2)) / cells
            row.append((radius * math.cos(a), RIM_H - depth, radius * math.sin(a), depth / NET_DEPTH))
        pts.append(row)
    net_colour = rng.choice([(0.95, 0.95, 0.95), (0.9, 0.9, 0.9), (0.85, 0.2, 0.2), (0.2, 0.3, 0.85)]) if rng.random() < 0.3 else (0.95, 0.95, 0.95)
    w("#declare S = NetSway[frame_number];\n")
    w("union {\n")
    for level in range(len(pts) - 1):
        for i in range(cells):
            a = pts[level][i]
            for j in (i, (i + (1 if level % 2 == 0 else -1)) % cells):
                b = pts[level + 1][j]
                w("  cylinder { <%.3f+S*%.2f,%.3f,%.3f>, <%.3f+S*%.2f,%.3f,%.3f>, 0.012 }\n" % (a[0], a[3], a[1], a[2], b[0], b[3], b[1], b[2]))
    w("  pigment { %s } finish { diffuse 0.9 }\n}\n" % srgb(net_colour))
    # The shooter of each attempt: legs, body, head and arms up to the ball while it is held.
    skin = rng.choice([(0.95, 0.8, 0.65), (0.75, 0.55, 0.4), (0.45, 0.3, 0.2), (0.3, 0.2, 0.15)])
    shirt = rng.choice([(0.1, 0.2, 0.7), (0.9, 0.9, 0.9), (0.1, 0.1, 0.1), (0.7, 0.1, 0.1), (0.2, 0.6, 0.3), (0.95, 0.8, 0.2)])
    shooters = []
    for s in truth:
        shooters.append(((s["start"], s["releaseTime"]), s["feet"]))
    w("#declare Shooters = array[%d][4] {%s}\n" % (len(shooters), ", ".join(
        "{%.3f, %.3f, %.3f, %.3f}" % (a, b, fx_, fz_) for ((a, b), (fx_, fz_)) in shooters)))
    w("#declare T = frame_number / %.4f;\n" % fps)
    w("""#for (K, 0, %d)
  #if (T >= Shooters[K][0] & T < Shooters[K][1] + 2.1)
    #declare P = <Shooters[K][2], 0, Shooters[K][3]>;
    union {
      cylinder { P + <-0.3,0,0>, P + <-0.25,2.9,0>, 0.22 pigment { %s } }
      cylinder { P + <0.3,0,0>, P + <0.25,2.9,0>, 0.22 pigment { %s } }
      cylinder { P + <0,2.8,0>, P + <0,5.2,0>, 0.65 pigment { %s } }
      sphere { P + <0,5.75,0>, 0.42 pigment { %s } }
      #declare Hand = Balls[frame_number][1];
      // Up to the ball until it leaves the hand, held up for the follow-through, then down.
      #if (T > Shooters[K][1] | Hand.y < -50) #declare Hand = P + <0,7.6,0>; #end
      #if (T > Shooters[K][1] + 0.6) #declare Hand = P + <0,3.0,0>; #end
      cylinder { P + <-0.6,5.0,0>, Hand + <-0.3,-0.1,0>, 0.13 pigment { %s } }
      cylinder { P + <0.6,5.0,0>, Hand + <0.3,-0.1,0>, 0.13 pigment { %s } }
    }
  #end
#end
""" % (len(shooters) - 1, srgb(skin), srgb(skin), srgb(shirt), srgb(skin), srgb(skin), srgb(skin)))
    return "".join(L)


def lighting(rng):
    dim = rng.random() < 0.3
    k = rng.uniform(0.35, 0.6) if dim else rng.uniform(0.8, 1.2)
    warm = rng.uniform(-0.12, 0.12)  # white balance
    colour = lambda s: (s * k * (1 + warm), s * k, s * k * (1 - warm))
    lamps = [((rng.uniform(-25, 25), rng.uniform(25, 40), rng.uniform(-25, 5)), colour(rng.uniform(0.8, 1.1)))]
    if rng.random() < 0.7:
        lamps.append(((rng.uniform(-30, 30), rng.uniform(20, 35), rng.uniform(-40, -10)), colour(rng.uniform(0.3, 0.6))))
    a = rng.uniform(0.25, 0.5) * k
    return {"lamps": lamps, "ambient": (a, a, a), "dim": dim}


def build(seed, width=None, height=None, fps=None):
    rng = random.Random(seed)
    if width is None:
        # Ray tracing costs by the pixel: mostly phone-like small sizes, some 720p.
        width, height = rng.choice([(640, 360), (640, 360), (854, 480), (854, 480), (1280, 720)])
    if fps is None:
        fps = rng.choice([24, 25, 30, 30, 50, 60] if width < 1280 else [24, 25, 30])
    side = rng.choice([-1, 1])
    path, truth = session(rng, side)
    cam = camera_for(rng, side, truth, width, height)
    light = lighting(rng)
    frames = int(math.ceil(path.t * fps))
    pov = scene_pov(rng, side, path, truth, cam, fps, frames, light)
    left, right = rim_ends(cam)
    # Where the ball's centre is in the image at each frame from the release to the attempt's end,
    # for the bench's pictures and for looking at what the analysis saw.
    for i, shot in enumerate(truth):
        end = truth[i + 1]["start"] if i + 1 < len(truth) else path.t
        pts = []
        for f in range(int(shot["releaseTime"] * fps), int(end * fps)):
            p = path.at(f / fps)
            q = cam.project(p) if p else None
            if q:
                pts.append([round(f / fps, 3), round(q[0], 1), round(q[1], 1)])
        shot["pathPx"] = pts
    encode = {"codec": rng.choice(["libx264", "libx264", "libx265"]), "crf": rng.randint(22, 32),
              "noise": rng.choice([0, 0, 3, 6, 10]), "exposure": round(rng.uniform(0.33, 0.5), 3)}
    meta = {"generator": "tools/povray/basketball_scene.py", "seed": seed, "width": width, "height": height,
            "fps": fps, "frames": frames, "seconds": round(frames / fps, 3), "hoopSide": "right" if side > 0 else "left",
            "camera": cam.as_json(), "dim": light["dim"], "encode": encode,
            "threePointDistanceFt": THREE_PT, "rimEnds": [[round(c, 1) for c in left], [round(c, 1) for c in right]],
            "shots": truth}
    options = {"hoop": {"rimLeft": [round(left[0], 1), round(left[1], 1)], "rimRight": [round(right[0], 1), round(right[1], 1)]},
               "threePointDistanceFt": THREE_PT}
    return pov, meta, options


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--width", type=int)
    ap.add_argument("--height", type=int)
    ap.add_argument("--fps", type=int)
    ap.add_argument("--antialias", type=float, default=0.3, help="POV-Ray +A threshold")
    ap.add_argument("--no-render", action="store_true", help="write scene.pov, options.json and truth.json only")
    ap.add_argument("--encode-only", action="store_true", help="encode the frames already in OUT/frames again")
    args = ap.parse_args()
    if (args.width is None) != (args.height is None):
        sys.exit("basketball_scene.py: give --width and --height together")

    os.makedirs(args.out, exist_ok=True)
    pov, truth, options = build(args.seed, args.width, args.height, args.fps)
    pov_path = os.path.join(args.out, "scene.pov")
    with open(pov_path, "w") as f:
        f.write(pov)
    with open(os.path.join(args.out, "options.json"), "w") as f:
        json.dump(options, f)
    frames_dir = os.path.join(args.out, "frames")
    if args.encode_only:
        old = json.load(open(os.path.join(args.out, "truth.json")))
        truth["renderSeconds"] = old.get("renderSeconds")
    if not args.no_render and not args.encode_only:
        t0 = time.time()
        shutil.rmtree(frames_dir, ignore_errors=True)
        os.makedirs(frames_dir)
        run_povray(pov_path, os.path.join(frames_dir, "f.png"), truth["width"], truth["height"], args.antialias,
                   extra=["+KFI0", "+KFF%d" % (truth["frames"] - 1)])
        # POV-Ray pads frame numbers to its own width; ffmpeg reads them in name order.
        names = sorted(glob.glob(os.path.join(frames_dir, "f*.png")))
        if len(names) != truth["frames"]:
            raise RuntimeError("povray wrote %d frames of %d" % (len(names), truth["frames"]))
        for i, n in enumerate(names):
            os.replace(n, os.path.join(frames_dir, "%05d.png" % i))
        truth["renderSeconds"] = round(time.time() - t0, 1)
    if not args.no_render:
        phone_encode(args.out, frames_dir, truth["fps"], truth["encode"], noise_per_gain=4)
    with open(os.path.join(args.out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)
    print("seed %d: %dx%d %d fps %.1f s, %d shots (%s)%s" % (
        args.seed, truth["width"], truth["height"], truth["fps"], truth["seconds"], len(truth["shots"]),
        " ".join("%s%s@%.0fft" % (s["kind"], "+" if s["made"] else "-", s["distanceFt"]) for s in truth["shots"]),
        (", rendered in %.0f s" % truth["renderSeconds"]) if "renderSeconds" in truth else ""), file=sys.stderr)


if __name__ == "__main__":
    main()
