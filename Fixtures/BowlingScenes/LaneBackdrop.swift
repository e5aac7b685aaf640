import SportMath

/// The static part of every frame: masking, approach, gutters, lane, foul line, arrows, pin deck and
/// pins, drawn once per clip (the renderer copies it per frame and only draws the ball).
enum LaneBackdrop {
    /// Colours picked far in HSV from the ball colours tests use (blue 220°, red 0°, purple 280°): the
    /// lane is a pale wood at hue ≈ 35°, saturation 40, value 84.
    static let masking = RGBColor(24, 24, 28)
    static let approach = RGBColor(110, 88, 66)
    static let gutter = RGBColor(72, 72, 74)
    static let laneWood = RGBColor(214, 178, 128)
    static let pinDeck = RGBColor(228, 204, 166)
    static let foulLine = RGBColor(18, 18, 18)
    static let arrow = RGBColor(70, 45, 30)
    static let pin = RGBColor(245, 245, 245)

    static func draw(camera: LaneCamera) -> RGBCanvas {
        var canvas = RGBCanvas(width: camera.width, height: camera.height, color: masking)
        let lane = LaneGeometry.self
        let outerRight = -lane.gutterWidthFt, outerLeft = lane.widthFt + lane.gutterWidthFt
        func quad(x0: Double, x1: Double, z0: Double, z1: Double, _ color: RGBColor) {
            let corners = [(x0, z0), (x1, z0), (x1, z1), (x0, z1)].map { x, z in
                project(camera, LaneCoordinate(x: x, y: 0, z: z))
            }
            canvas.fillConvexPolygon(corners, color: color)
        }
        // Painter's order, far to near is not needed: these lie side by side on the lane plane.
        quad(x0: outerRight, x1: outerLeft, z0: -6, z1: 0, approach)
        quad(x0: outerRight, x1: 0, z0: 0, z1: lane.pinDeckEndFt, gutter)
        quad(x0: lane.widthFt, x1: outerLeft, z0: 0, z1: lane.pinDeckEndFt, gutter)
        quad(x0: 0, x1: lane.widthFt, z0: 0, z1: lane.pinsDistanceFt, laneWood)
        quad(x0: 0, x1: lane.widthFt, z0: lane.pinsDistanceFt, z1: lane.pinDeckEndFt, pinDeck)
        // The foul line is drawn on the approach side so the lane itself starts exactly at 0 ft.
        quad(x0: outerRight, x1: outerLeft, z0: -0.08, z1: 0, foulLine)
        for board in lane.arrowBoards {
            // A triangle about 1.6 boards wide and 9 in long centred on 15 ft, pointing at the pins.
            let tip = project(camera, .onLane(board: board, distanceFt: lane.arrowDistanceFt + 0.375))
            let baseRight = project(camera, .onLane(board: board - 0.8, distanceFt: lane.arrowDistanceFt - 0.375))
            let baseLeft = project(camera, .onLane(board: board + 0.8, distanceFt: lane.arrowDistanceFt - 0.375))
            canvas.fillConvexPolygon([tip, baseRight, baseLeft], color: arrow)
        }
        // Pins as white discs 6 in above their spots, far rows first so near pins cover them.
        var unused = SeededRandom(seed: 0)
        for spot in lane.pinSpots.reversed() {
            let centre = LaneCoordinate.onLane(board: spot.board, distanceFt: spot.distanceFt, height: 0.5)
            canvas.fillDisc(centre: project(camera, centre),
                            radius: camera.projectedRadius(ofSphereAt: centre, radiusFt: 0.2),
                            color: pin, noise: &unused)
        }
        return canvas
    }

    private static func project(_ camera: LaneCamera, _ point: LaneCoordinate) -> ImagePoint {
        guard let p = camera.project(point) else {
            preconditionFailure("the camera must stand behind the drawn approach (z < -6 ft)")
        }
        return p
    }
}
