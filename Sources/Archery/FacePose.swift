import SportMath

/// The face's plane as the camera saw it, recovered from the face's homography alone: a pinhole
/// camera with square pixels and its principal point at the picture's centre (a phone's or a
/// camera's picture, not a crop of one). Two facts of a rotation fix the focal length: the face's
/// two axes are at right angles and of one length.
///
/// It says which way an arrow runs in the picture: an arrow stands out of the face towards the
/// camera (leaning, but less than the archer's angle of view changes it), so its nock lies from its
/// impact the way the face's normal runs in the picture.
struct FacePose {
    let focal: Double
    /// The face's axes (one face radius long), its centre and its normal (towards the camera), in
    /// camera coordinates with the face radius as the unit.
    let axisX, axisY, origin, normal: SIMD3<Double>
    let face: TargetFace

    /// Nil when the focal length is not fixed by the picture: a face seen straight on (its axes'
    /// vanishing points at infinity) or a homography no camera makes.
    init?(face: TargetFace, width: Int, height: Int) {
        guard let toImage = Homography(h: face.homography).inverse else { return nil }
        let centre = (x: Double(width - 1) / 2, y: Double(height - 1) / 2)
        let h = toImage.h
        // The homography's columns with the principal point moved to the origin.
        func column(_ c: Int) -> SIMD3<Double> { SIMD3(h[c] - centre.x * h[6 + c], h[3 + c] - centre.y * h[6 + c], h[6 + c]) }
        let h1 = column(0), h2 = column(1), h3 = column(2)
        let across = h1.z * h2.z
        guard abs(across) > 1e-18 else { return nil }
        let focalSquared = -(h1.x * h2.x + h1.y * h2.y) / across
        guard focalSquared > 0, focalSquared.isFinite else { return nil }
        let focal = focalSquared.squareRoot()
        guard focal > 0.2 * Double(max(width, height)), focal < 20 * Double(max(width, height)) else { return nil }
        let unproject = { (v: SIMD3<Double>) in SIMD3(v.x / focal, v.y / focal, v.z) }
        var (x, y, t) = (unproject(h1), unproject(h2), unproject(h3))
        let scale = 1 / ((x * x).sum()).squareRoot()
        (x, y, t) = (x * scale, y * scale, t * scale)
        if t.z < 0 { (x, y, t) = (-x, -y, -t) }
        var normal = SIMD3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x)
        normal /= ((normal * normal).sum()).squareRoot()
        if (normal * t).sum() > 0 { normal = -normal }
        (self.focal, axisX, axisY, origin, self.normal, self.face) = (focal, x, y, t, normal, face)
    }

    /// The picture's unit direction in which a point of the face at (`pixelX`, `pixelY`) moves as
    /// it comes off the face towards the camera; nil on the horizon.
    func outward(pixelX: Double, pixelY: Double) -> (x: Double, y: Double)? {
        guard let q = face.faceCoordinates(pixelX: pixelX, pixelY: pixelY) else { return nil }
        let point = axisX * q.x + axisY * q.y + origin
        let lifted = point + 0.05 * normal
        guard point.z > 0, lifted.z > 0 else { return nil }
        let dx = lifted.x / lifted.z - point.x / point.z, dy = lifted.y / lifted.z - point.y / point.z
        let length = (dx * dx + dy * dy).squareRoot()
        return length > 1e-12 ? (dx / length, dy / length) : nil
    }
}
