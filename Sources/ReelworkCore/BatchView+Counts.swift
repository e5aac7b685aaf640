extension BatchView {
    /// How many of the batch's jobs are in any of `statuses` (`counts` is keyed by their names).
    public func count(_ statuses: [JobStatus]) -> Int {
        statuses.reduce(0) { $0 + counts[$1.rawValue, default: 0] }
    }

    /// How many of the batch's jobs are in `status`.
    public func count(_ status: JobStatus) -> Int { count([status]) }
}
