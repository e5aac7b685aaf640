import Foundation

/// A ball in flight, in world feet, with the few things it can hit: the backboard's face, the rim
/// where the camera's plane cuts it (its two ends), the floor; inside the net it is slowed. Small
/// fixed steps, so the same launch gives the same path everywhere.
struct BallFlight {
    static let gravity = 32.174
    static let step = 1.0 / 2400

    struct State {
        var x, y, vx, vy: Double
    }

    /// What happened along the way, for the truth.
    struct Contacts {
        var board = false
        var rim = false
    }

    var state: State
    var contacts = Contacts()
    private var floorBounces = 0

    init(x: Double, y: Double, vx: Double, vy: Double) { state = State(x: x, y: y, vx: vx, vy: vy) }

    /// Launch from (x, y) so the centre passes (tx, ty) going down at `entryDegrees` below horizontal.
    static func aimed(from x: Double, _ y: Double, at tx: Double, _ ty: Double, entryDegrees: Double) -> BallFlight {
        let run = x - tx
        let t = (2 * ((ty - y) + tan(entryDegrees * .pi / 180) * run) / gravity).squareRoot()
        return BallFlight(x: x, y: y, vx: -run / t, vy: (ty - y) / t + gravity * t / 2)
    }

    /// Whether the ball has come to rest on the floor.
    var settled: Bool { floorBounces >= 4 }

    mutating func advance(by seconds: Double) {
        var left = seconds
        while left > 1e-12 {
            let dt = min(Self.step, left)
            tick(dt)
            left -= dt
        }
    }

    private mutating func tick(_ dt: Double) {
        let r = Court.ballRadius
        var s = state
        s.vy -= Self.gravity * dt
        s.x += s.vx * dt
        s.y += s.vy * dt
        // The board: its face is a wall from its bottom to its top edge.
        if s.vx < 0, s.x - r < Court.boardX, s.x - r > Court.boardX - 0.5, s.y > Court.boardBottom, s.y < Court.boardTop {
            s.x = Court.boardX + r
            s.vx = -0.6 * s.vx
            s.vy *= 0.85
            contacts.board = true
        }
        // The rim's two ends, as round posts in the camera's plane.
        for end in [Court.rimHalfWidth, -Court.rimHalfWidth] {
            let dx = s.x - end, dy = s.y - Court.rimHeight
            let d = (dx * dx + dy * dy).squareRoot()
            guard d < r, d > 0 else { continue }
            let nx = dx / d, ny = dy / d
            let vn = s.vx * nx + s.vy * ny
            if vn < 0 {
                s.vx -= 1.55 * vn * nx
                s.vy -= 1.55 * vn * ny
                contacts.rim = true
            }
            s.x = end + nx * r
            s.y = Court.rimHeight + ny * r
        }
        // The net slows a ball inside it and funnels it down: it narrows from the rim to its bottom.
        if abs(s.x) < Court.rimHalfWidth, s.y < Court.rimHeight, s.y > Court.rimHeight - Court.netDepth {
            s.vx *= 1 - 6 * dt
            s.vy *= 1 - 3 * dt
            let depth = (Court.rimHeight - s.y) / Court.netDepth
            let halfWidth = Court.rimHalfWidth + depth * (Court.netBottomHalfWidth - Court.rimHalfWidth) - 0.05
            if abs(s.x) > halfWidth {
                s.x = s.x > 0 ? halfWidth : -halfWidth
                s.vx = -0.3 * s.vx
            }
        }
        if s.y < r, s.vy < 0 {
            s.y = r
            s.vy = -0.65 * s.vy
            s.vx *= 0.85
            floorBounces += 1
        }
        state = s
    }
}
