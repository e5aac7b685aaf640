import Foundation

/// A scripted practice session seen from the side: a hoop (white board, orange rim, white net), a
/// player stand-in, an orange ball. Every frame's ball and player position is worked out when the
/// scene is made, with the truth of every shot; frames are drawn on demand (`ShootingSceneRenderer`).
public struct ShootingScene: Sendable {
    static let releaseHeight = 7.5
    static let gatherHeight = 4.5
    static let holdSeconds = 0.3
    static let riseSeconds = 0.3
    /// No ball after a flight: the ball is fetched (a gap longer than the tracker bridges).
    static let fetchSeconds = 0.4

    public let view: CourtView
    public let fps: Int
    public let showsHoop: Bool
    public let seed: UInt64
    public let truth: [AttemptTruth]
    /// World feet, per frame; nil: no ball in view.
    let ball: [(x: Double, y: Double)?]
    let player: [Double?]

    public var frameCount: Int { ball.count }
    public func time(ofFrame index: Int) -> Double { Double(index) / Double(fps) }

    /// A second ball lying still on the floor behind the hoop, in every frame.
    public let restingBall: Bool
    /// The share of a frame's time the shutter is open: a moving ball is drawn smeared along its
    /// path over that time (0: sharp; 1: a dim hall's 1/30 s at 30 frames a second).
    public let shutter: Double

    /// `showsBall: false` draws everything but the ball (the rim must not be taken for one);
    /// `restingBall` adds a still ball on the floor (nor must a ball nobody plays with).
    public init(width: Int, height: Int, fps: Int, events: [SceneEvent], seed: UInt64 = 1, showsHoop: Bool = true,
                showsBall: Bool = true, restingBall: Bool = false, shutter: Double = 0) {
        precondition((0...1).contains(shutter), "shutter is a share of the frame time")
        self.restingBall = restingBall
        self.shutter = shutter
        precondition(width >= 64 && height >= 36 && fps >= 10, "scene too small")
        view = CourtView(width: width, height: height)
        (self.fps, self.showsHoop, self.seed) = (fps, showsHoop, seed)
        var timeline = Timeline(fps: fps, view: view)
        for event in events { timeline.add(event) }
        truth = timeline.truth
        ball = showsBall ? timeline.ball : timeline.ball.map { _ in nil }
        player = timeline.player
    }

    /// The `hoop` option a person would give for this view.
    public var rimEnds: (left: (x: Double, y: Double), right: (x: Double, y: Double)) { (view.rimLeft, view.rimRight) }
}

/// Builds the per-frame positions event by event.
struct Timeline {
    let fps: Int
    let view: CourtView
    var ball: [(x: Double, y: Double)?] = []
    var player: [Double?] = []
    var truth: [AttemptTruth] = []

    init(fps: Int, view: CourtView) { (self.fps, self.view) = (fps, view) }

    var now: Double { Double(ball.count) / Double(fps) }
    var frameTime: Double { 1 / Double(fps) }

    mutating func add(_ event: SceneEvent) {
        switch event {
        case .pause(let seconds):
            hold(nil, player: nil, seconds: seconds)
        case .dribble(let playerX, let bounces):
            let start = now, period = 0.5, handHeight = 3.2, r = Court.ballRadius
            while now < start + Double(bounces) * period {
                let phase = (now - start) / period * .pi
                append((playerX - 0.9, r + (handHeight - r) * abs(cos(phase))), player: playerX)
            }
            hold(nil, player: playerX, seconds: BallFlightLimits.gap)
        case .pass(let playerX, let towardHoop):
            let direction = towardHoop ? -1.0 : 1.0
            var flight = BallFlight(x: playerX + 0.9 * direction, y: 4.5, vx: 28 * direction, vy: 3)
            fly(&flight, player: playerX, maxSeconds: 1.5)
            hold(nil, player: playerX, seconds: BallFlightLimits.gap)
        case .shot(let kind, let distance):
            let playerX = distance + 0.9
            hold((distance, ShootingScene.gatherHeight), player: playerX, seconds: ShootingScene.holdSeconds)
            let riseStart = now
            while now < riseStart + ShootingScene.riseSeconds {
                let f = (now - riseStart) / ShootingScene.riseSeconds
                append((distance, ShootingScene.gatherHeight + f * (ShootingScene.releaseHeight - ShootingScene.gatherHeight)), player: playerX)
            }
            // Released at the first frame time from here on; the flight starts at that instant.
            let releaseTime = now
            var flight = ShotLaunch.launch(kind, fromX: distance, y: ShootingScene.releaseHeight)
            if kind == .inAndOut {
                truth.append(AttemptTruth(kind: kind, distanceFt: distance, releaseTime: releaseTime, made: false, touchedRim: true, touchedBoard: false))
                inAndOut(&flight, player: playerX)
            } else {
                let outcome = ShotLaunch.fly(flight)
                truth.append(AttemptTruth(kind: kind, distanceFt: distance, releaseTime: releaseTime, made: outcome.made,
                                          touchedRim: outcome.contacts.rim, touchedBoard: outcome.contacts.board))
                fly(&flight, player: playerX, maxSeconds: 3.5)
            }
            hold(nil, player: playerX, seconds: ShootingScene.fetchSeconds)
        }
    }

    private mutating func append(_ position: (x: Double, y: Double)?, player x: Double?) {
        ball.append(position)
        player.append(x)
    }

    private mutating func hold(_ position: (x: Double, y: Double)?, player x: Double?, seconds: Double) {
        let end = now + seconds
        while now < end - 1e-9 { append(position, player: x) }
    }

    /// A swish's flight until the centre is `inAndOutDepth` below the rim's height inside the hoop,
    /// then a scripted pop: up off the back of the rim and out towards the shooter, down to the floor.
    private mutating func inAndOut(_ flight: inout BallFlight, player x: Double) {
        let start = now
        while now < start + 3, flight.state.vy > 0 || flight.state.y > Court.rimHeight - Self.inAndOutDepth {
            append((flight.state.x, flight.state.y), player: x)
            flight.advance(by: frameTime)
        }
        let (x0, y0) = (flight.state.x, flight.state.y), (vx, vy) = (7.0, 9.0)
        let popped = now
        while now < popped + 2 {
            let t = now - popped
            let position = (x: x0 + vx * t, y: y0 + vy * t - BallFlight.gravity * t * t / 2)
            if position.y < Court.ballRadius { break }
            append(position, player: x)
        }
    }

    /// How far below the rim's height the in-and-out's centre goes before it pops out (0.3 rim
    /// widths: far above the net's bottom, a rim width down).
    static let inAndOutDepth = 0.45

    /// Samples the flight at each frame until it settles, leaves the view or `maxSeconds` pass.
    private mutating func fly(_ flight: inout BallFlight, player x: Double, maxSeconds: Double) {
        let start = now
        while now < start + maxSeconds, !flight.settled {
            let s = flight.state
            let image = view.image(x: s.x, y: s.y)
            if image.x < -20 || image.x > Double(view.width) + 20 { break }
            append((s.x, s.y), player: x)
            flight.advance(by: frameTime)
        }
    }
}

enum BallFlightLimits {
    /// Between events: longer than the tracker's gap, so events never join into one path.
    static let gap = 0.4
}

extension ShootingScene {
    /// The ball's centre and radius in image pixels at frame `index`; nil when no ball is drawn
    /// (what a perfect detector would box).
    public func ballInImage(frame index: Int) -> (x: Double, y: Double, radius: Double)? {
        guard index >= 0, index < ball.count, let b = ball[index] else { return nil }
        let p = view.image(x: b.x, y: b.y)
        return (p.x, p.y, Court.ballRadius * view.scale)
    }
}
