import Foundation

/// BlazePose's 33 landmarks of a standing player in body coordinates (torso lengths; x towards the
/// player's own right, y up, z forward, origin at the hip midpoint), for a given upper-body turn
/// and the two wrists' places. Proportions as Tests/TennisTests' `SyntheticPlayer`: nose 1.4 above
/// the hips, shoulders 1.0, ankles −1.8, so the body is about 3.6 torso lengths tall.
enum PoseSkeleton {
    /// The 33 points; "left"/"right" are the person's own sides (odd indices left, as BlazePose).
    /// `turnDegrees` turns the shoulders, head and elbows about the vertical (positive: the right
    /// shoulder goes back). Wrists are given in body coordinates, not turned.
    static func points(turnDegrees: Double, leftWrist: SIMD3<Double>, rightWrist: SIMD3<Double>) -> [SIMD3<Double>] {
        let a = turnDegrees * .pi / 180
        func turned(_ p: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(p.x * cos(a) + p.z * sin(a), p.y, -p.x * sin(a) + p.z * cos(a))
        }
        var p = [SIMD3<Double>](repeating: .zero, count: 33)
        p[0] = turned(SIMD3(0, 1.4, 0.12))
        // Eyes (inner, centre, outer), ears, mouth: left then right.
        for (i, x) in [(1, -0.03), (2, -0.06), (3, -0.09), (4, 0.03), (5, 0.06), (6, 0.09)] { p[i] = turned(SIMD3(x, 1.46, 0.1)) }
        p[7] = turned(SIMD3(-0.12, 1.42, 0)); p[8] = turned(SIMD3(0.12, 1.42, 0))
        p[9] = turned(SIMD3(-0.05, 1.32, 0.1)); p[10] = turned(SIMD3(0.05, 1.32, 0.1))
        p[11] = turned(SIMD3(-0.45, 1.0, 0)); p[12] = turned(SIMD3(0.45, 1.0, 0))
        p[15] = leftWrist; p[16] = rightWrist
        // Elbows between shoulder and wrist, dropped a little (the arm bends down and out).
        p[13] = (p[11] + leftWrist) / 2 + SIMD3(-0.08, -0.12, 0)
        p[14] = (p[12] + rightWrist) / 2 + SIMD3(0.08, -0.12, 0)
        // Pinky, index, thumb: at the hand, just beyond the wrist.
        for (i, wrist) in [(17, leftWrist), (19, leftWrist), (21, leftWrist), (18, rightWrist), (20, rightWrist), (22, rightWrist)] {
            p[i] = wrist + SIMD3(0, -0.06, 0.04)
        }
        p[23] = SIMD3(-0.3, 0, 0); p[24] = SIMD3(0.3, 0, 0)
        p[25] = SIMD3(-0.3, -0.9, 0.05); p[26] = SIMD3(0.3, -0.9, 0.05)
        p[27] = SIMD3(-0.3, -1.8, 0); p[28] = SIMD3(0.3, -1.8, 0)
        p[29] = SIMD3(-0.33, -1.85, -0.08); p[30] = SIMD3(0.33, -1.85, -0.08)
        p[31] = SIMD3(-0.3, -1.9, 0.15); p[32] = SIMD3(0.3, -1.9, 0.15)
        return p
    }
}
