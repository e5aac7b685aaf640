/// How a file of `sizeBytes` is cut into parts: S3's rules (every part but the last at least 5 MiB,
/// at most 10,000 parts), whole MiB, at least `minimumPartBytes` so a phone's clip is a few parts.
public struct UploadPlan: Sendable, Equatable {
    public let sizeBytes: Int64
    public let partBytes: Int64

    public static let minimumPartBytes: Int64 = 8 << 20
    public static let maximumParts: Int64 = 10_000

    public init(sizeBytes: Int64) {
        self.sizeBytes = sizeBytes
        let mib: Int64 = 1 << 20
        let spread = (sizeBytes + Self.maximumParts - 1) / Self.maximumParts
        self.partBytes = max(Self.minimumPartBytes, (spread + mib - 1) / mib * mib)
    }

    public init(sizeBytes: Int64, partBytes: Int64) {
        self.sizeBytes = sizeBytes
        self.partBytes = partBytes
    }

    public var partCount: Int { Int(max(1, (sizeBytes + partBytes - 1) / partBytes)) }

    /// Where part `number` (1-based) starts in the file.
    public func offset(ofPart number: Int) -> Int64 { Int64(number - 1) * partBytes }

    /// Bytes of part `number`: `partBytes`, or the rest for the last.
    public func bytes(ofPart number: Int) -> Int64 {
        number == partCount ? sizeBytes - offset(ofPart: number) : partBytes
    }
}
