import SportMath

/// Draws a scene's frames as packed RGB24 (width × height × 3 bytes): the still backdrop once, then
/// per frame the player, the ball and the net in front of it.
public final class ShootingSceneRenderer {
    static let wall: (UInt8, UInt8, UInt8) = (88, 98, 118)
    static let floor: (UInt8, UInt8, UInt8) = (128, 128, 138)
    static let board: (UInt8, UInt8, UInt8) = (240, 240, 240)
    static let steel: (UInt8, UInt8, UInt8) = (100, 100, 104)
    static let rim: (UInt8, UInt8, UInt8) = (225, 85, 25)
    static let net: (UInt8, UInt8, UInt8) = (235, 235, 235)
    static let jersey: (UInt8, UInt8, UInt8) = (40, 60, 150)
    static let head: (UInt8, UInt8, UInt8) = (120, 95, 85)
    static let ballColor: (UInt8, UInt8, UInt8) = (230, 110, 35)

    public let scene: ShootingScene
    private let backdrop: [UInt8]

    public init(scene: ShootingScene) {
        self.scene = scene
        var canvas = Canvas(width: scene.view.width, height: scene.view.height)
        let v = scene.view
        let floorTop = Int(v.image(x: 0, y: 0).y.rounded())
        canvas.fillRect(x0: 0, y0: 0, x1: Double(v.width), y1: Double(floorTop), Self.wall)
        canvas.fillRect(x0: 0, y0: Double(floorTop), x1: Double(v.width), y1: Double(v.height), Self.floor)
        var noise = SeededRandom(seed: scene.seed)
        canvas.addNoise(&noise, amplitude: 3)
        if scene.showsHoop {
            func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ color: (UInt8, UInt8, UInt8)) {
                let a = v.image(x: x0, y: y1), b = v.image(x: x1, y: y0)
                canvas.fillRect(x0: min(a.x, b.x), y0: a.y, x1: max(a.x, b.x), y1: b.y, color)
            }
            rect(-4.3, 0, -3.9, 12.6, Self.steel)                      // pole
            rect(-3.9, 12.2, -2.25, 12.5, Self.steel)                  // arm to the board
            rect(-2.25, Court.boardBottom, Court.boardX, Court.boardTop, Self.board)
            let halfThickness = max(1.0, 0.04 * v.scale) / v.scale
            rect(Court.boardX, Court.rimHeight - halfThickness, -Court.rimHalfWidth, Court.rimHeight + halfThickness, Self.steel)
            rect(-Court.rimHalfWidth, Court.rimHeight - halfThickness, Court.rimHalfWidth, Court.rimHeight + halfThickness, Self.rim)
        }
        if scene.restingBall {
            let c = v.image(x: -3.0, y: Court.ballRadius)
            var quiet = SeededRandom(seed: scene.seed)
            canvas.fillDisc(x: c.x, y: c.y, radius: Court.ballRadius * v.scale, Self.ballColor, noise: &quiet, amplitude: 6)
        }
        backdrop = canvas.pixels
    }

    /// Frame `index` into `pixels` (resized to width × height × 3 when it is not).
    public func render(frame index: Int, into pixels: inout [UInt8]) {
        pixels = backdrop
        let v = scene.view
        var canvas = Canvas(width: v.width, height: v.height, pixels: pixels)
        pixels = []
        if let x = scene.player[index] {
            let feet = v.image(x: x + 0.8, y: 5.2), top = v.image(x: x - 0.8, y: 0)
            canvas.fillRect(x0: min(feet.x, top.x), y0: feet.y, x1: max(feet.x, top.x), y1: top.y, Self.jersey)
            let head = v.image(x: x, y: 5.8)
            var quiet = SeededRandom(seed: 0)
            canvas.fillDisc(x: head.x, y: head.y, radius: 0.45 * v.scale, Self.head, noise: &quiet, amplitude: 0)
        }
        if let ball = scene.ball[index] {
            var noise = SeededRandom(seed: scene.seed &+ UInt64(index) &* 0x9E37_79B9)
            for c in smear(frame: index, at: v.image(x: ball.x, y: ball.y)) {
                canvas.fillDisc(x: c.x, y: c.y, radius: Court.ballRadius * v.scale, Self.ballColor, noise: &noise, amplitude: 6)
            }
        }
        if scene.showsHoop {
            // The net hangs in front of the ball: cords from the rim's ends to a narrower bottom, crossed.
            let top = Court.rimHeight, bottom = Court.rimHeight - Court.netDepth
            let w = Court.rimHalfWidth, b = Court.netBottomHalfWidth
            let thickness = max(1, 0.02 * v.scale)
            for (from, to) in [((w, top), (b, bottom)), ((-w, top), (-b, bottom)), ((w, top), (-b, bottom)), ((-w, top), (b, bottom))] {
                let p = v.image(x: from.0, y: from.1), q = v.image(x: to.0, y: to.1)
                canvas.line(from: p, to: q, thickness: thickness, Self.net)
            }
        }
        pixels = canvas.pixels
    }

    /// Where to draw the ball in frame `index` (image point `c`): once when the shutter is fast or
    /// the ball is not seen in both neighbouring frames, else at instants across the exposure,
    /// which the neighbours' positions bound (the ball moves about (next − previous) / 2 a frame).
    func smear(frame index: Int, at c: (x: Double, y: Double)) -> [(x: Double, y: Double)] {
        let v = scene.view
        guard scene.shutter > 0, index > 0, index + 1 < scene.frameCount,
              let before = scene.ball[index - 1], let after = scene.ball[index + 1] else { return [c] }
        let p = v.image(x: before.x, y: before.y), q = v.image(x: after.x, y: after.y)
        let dx = (q.x - p.x) / 2 * scene.shutter, dy = (q.y - p.y) / 2 * scene.shutter
        let instants = 9
        return (0..<instants).map { k in
            let f = Double(k) / Double(instants - 1) - 0.5
            return (c.x + f * dx, c.y + f * dy)
        }
    }
}

/// An RGB24 image with the few fills the scene needs; a pixel is covered when its centre is inside.
struct Canvas {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 3))
    }

    init(width: Int, height: Int, pixels: [UInt8]) { (self.width, self.height, self.pixels) = (width, height, pixels) }

    mutating func fillRect(x0: Double, y0: Double, x1: Double, y1: Double, _ color: (UInt8, UInt8, UInt8)) {
        let left = max(0, Int(x0.rounded(.up))), right = min(width - 1, Int(x1.rounded(.down)))
        let top = max(0, Int(y0.rounded(.up))), bottom = min(height - 1, Int(y1.rounded(.down)))
        guard left <= right, top <= bottom else { return }
        let w = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in top...bottom {
                for x in left...right {
                    let i = (y * w + x) * 3
                    buffer[i] = color.0; buffer[i + 1] = color.1; buffer[i + 2] = color.2
                }
            }
        }
    }

    mutating func fillDisc(x cx: Double, y cy: Double, radius: Double, _ color: (UInt8, UInt8, UInt8),
                           noise: inout SeededRandom, amplitude: Int) {
        let top = max(0, Int((cy - radius).rounded(.up))), bottom = min(height - 1, Int((cy + radius).rounded(.down)))
        guard top <= bottom else { return }
        let w = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in top...bottom {
                let dy = Double(y) - cy
                let half = max(0, radius * radius - dy * dy).squareRoot()
                let left = max(0, Int((cx - half).rounded(.up))), right = min(w - 1, Int((cx + half).rounded(.down)))
                guard left <= right else { continue }
                for x in left...right {
                    let i = (y * w + x) * 3
                    buffer[i] = clampByte(Int(color.0) + noise.offset(amplitude: amplitude))
                    buffer[i + 1] = clampByte(Int(color.1) + noise.offset(amplitude: amplitude))
                    buffer[i + 2] = clampByte(Int(color.2) + noise.offset(amplitude: amplitude))
                }
            }
        }
    }

    mutating func line(from p: (x: Double, y: Double), to q: (x: Double, y: Double), thickness: Double, _ color: (UInt8, UInt8, UInt8)) {
        let length = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
        let steps = max(1, Int(length * 2))
        let half = thickness / 2
        for k in 0...steps {
            let f = Double(k) / Double(steps)
            let x = p.x + f * (q.x - p.x), y = p.y + f * (q.y - p.y)
            fillRect(x0: x - half, y0: y - half, x1: x + half, y1: y + half, color)
        }
    }

    mutating func addNoise(_ noise: inout SeededRandom, amplitude: Int) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices { buffer[i] = clampByte(Int(buffer[i]) + noise.offset(amplitude: amplitude)) }
        }
    }
}

@inline(__always) func clampByte(_ value: Int) -> UInt8 { UInt8(max(0, min(255, value))) }
