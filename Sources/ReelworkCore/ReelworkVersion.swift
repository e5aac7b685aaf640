/// The version this build reports (workers list it, so an operator sees a mixed pool during a rollout).
public enum ReelworkVersion {
    public static let current = "0.13.0"
}
