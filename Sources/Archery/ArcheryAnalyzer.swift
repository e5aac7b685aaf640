import ReelworkCore

// How an end is scored (docs/DOMAIN.md, "Archery (seed 002)"):
//   WorkingImage        the photo box-averaged to ≤ 1600 px on its long side, each pixel labelled
//                       gold / red / blue / black / white / other (RingColor)
//   RingBoundaryTracer  rays from the gold's centroid; where gold→red, red→blue, blue→black,
//                       black→white and white→background change along each ray
//   ConicFit            an ellipse per boundary (algebraic least squares), outliers dropped
//   FaceFitter          one homography fitted to all boundaries at once (each point's distance
//                       from the centre in face radii = its ring's radius): under perspective the
//                       ellipses' centres are not the face's centre, the homography's is
//   ArrowFinder         pixels unlike the colour the face should have there (each zone's colour
//                       measured in the photo), grouped; pieces of one shaft cut by a ring line
//                       joined; the end away from the fletching is the impact, a small round group
//                       a hole (its centre)
//   ShaftSplitter       a group holding several crossing shafts parted into straight runs (RANSAC)
//   ArcheryScoring      seed 002's table with the World Archery line-cutter rule

public enum ArcheryAnalyzer {
    /// The message for `needs_person` when no face is found.
    public static let noFaceAdvice =
        "No target face found: photograph the whole face, in good light, from within 35° of straight on"

    /// Finds the face, its arrows, and scores the end. Throws `ReelworkError.needsPerson` with
    /// advice when no whole face is found: `noFaceAdvice`, or a message saying the face is cut off
    /// by the photo's edge. Deterministic: the same photo always gives the same end.
    public static func analyze(_ image: ArcheryImage, options: ArcheryOptions) throws -> ArcheryResult {
        let working = WorkingImage(image)
        let found = try FaceFinder.find(in: working)
        let impacts = ArrowFinder.find(in: working, face: found, options: options)
        return ArcheryScoring.end(face: found.face, impacts: impacts, options: options)
    }

    /// The face alone (the `target` stage).
    public static func findFace(_ image: ArcheryImage) throws -> TargetFace {
        try FaceFinder.find(in: WorkingImage(image)).face
    }
}
