import Foundation

/// SplitMix64: a small deterministic generator, so a fuzz case is the same on every run and machine
/// (a failing case can be replayed from its label).
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Files damaged the way the world damages them, made from real ones: cut at every box boundary,
/// bits flipped, box sizes made absurd. For the fuzz tests of upload and `analyze`, and for
/// `loadtest/media-fuzz.sh`, which runs many more of them.
public enum DamagedFiles {
    /// One damaged file: `label` says how it was made (and replays it).
    public struct Case {
        public let label: String
        public let data: Data
    }

    /// 100 bytes: an `ftyp` box, then an `mdat` box whose 64-bit size is near Int64.max. A
    /// container check that adds offset and size without care overflows on it.
    public static func hugeBoxSize(size: UInt64 = UInt64(Int64.max) - 8) -> Data {
        var data = box("ftyp", Data("isom".utf8) + bigEndian(UInt32(0x200)) + Data("isomiso2avc1mp41".utf8))
        data += bigEndian(UInt32(1)) + Data("mdat".utf8) + bigEndian(size)
        data += Data(repeating: 0, count: 100 - data.count)
        return data
    }

    /// `avi`, an AVI holding one MJPEG frame (as ffmpeg writes it), with its header and its JPEG
    /// claiming a `width` × `height` picture: a file a few kilobytes long that says it is 16K.
    public static func claimingPictureSize(_ avi: Data, width: Int, height: Int) throws -> Data {
        var data = avi
        func patch(_ marker: String, _ offset: Int, _ bytes: Data) throws {
            guard let found = data.range(of: Data(marker.utf8)) ?? (marker == "SOF0" ? data.range(of: Data([0xFF, 0xC0])) : nil) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            data.replaceSubrange((found.lowerBound + offset)..<(found.lowerBound + offset + bytes.count), with: bytes)
        }
        func littleEndian(_ value: Int) -> Data { withUnsafeBytes(of: UInt32(value).littleEndian) { Data($0) } }
        try patch("avih", 8 + 32, littleEndian(width) + littleEndian(height))       // main header: dwWidth, dwHeight
        try patch("strf", 8 + 4, littleEndian(width) + littleEndian(height))        // BITMAPINFOHEADER: biWidth, biHeight
        try patch("SOF0", 5, bigEndian(UInt16(height)) + bigEndian(UInt16(width)))  // the JPEG's frame header
        return data
    }

    /// An ISO-BMFF box of `type` around `payload` (32-bit size).
    public static func box(_ type: String, _ payload: Data) -> Data {
        bigEndian(UInt32(8 + payload.count)) + Data(type.utf8) + payload
    }

    public static func bigEndian<T: FixedWidthInteger>(_ value: T) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    /// Where each box starts in an MP4/QuickTime file, top level and inside the boxes that hold
    /// others (moov, trak, mdia, minf, stbl, moof, traf), with its type.
    public static func boxes(in data: Data) -> [(offset: Int, type: String)] {
        var found: [(Int, String)] = []
        func walk(_ start: Int, _ end: Int, depth: Int) {
            var offset = start
            while offset + 8 <= end, depth < 8 {
                let size32 = data.readUInt32(at: offset)
                let type = String(decoding: data[(data.startIndex + offset + 4)..<(data.startIndex + offset + 8)], as: UTF8.self)
                var size = Int(size32)
                if size32 == 1, offset + 16 <= end { size = Int(clamping: data.readUInt64(at: offset + 8)) }
                if size32 == 0 { size = end - offset }
                guard size >= 8, offset + size <= end else { return }
                found.append((offset, type))
                if ["moov", "trak", "mdia", "minf", "stbl", "moof", "traf", "edts", "dinf"].contains(type) {
                    walk(offset + 8, offset + size, depth: depth + 1)
                }
                offset += size
            }
        }
        walk(0, data.count, depth: 0)
        return found
    }

    /// The damaged versions of `data` (labelled with `name`), about `count` of them when `count`
    /// exceeds the deterministic ones: every cut at a box boundary (and a few bytes either side),
    /// every box size set to each absurd value, then random bit flips (1, 8 or 64 of them).
    public static func cases(of data: Data, name: String, count: Int, seed: UInt64 = 1) -> [Case] {
        var cases: [Case] = []
        let boxes = boxes(in: data)
        var cuts = Set([0, 1, 7, 8, 16, data.count / 3, data.count / 2, data.count - 1])
        for (offset, _) in boxes { for delta in [-1, 0, 1, 8, 9] { cuts.insert(offset + delta) } }
        for cut in cuts.sorted() where cut >= 0 && cut < data.count {
            cases.append(Case(label: "\(name) cut at byte \(cut)", data: data.prefix(cut)))
        }
        let absurd: [(String, (Int) -> Data)] = [
            ("0", { _ in bigEndian(UInt32(0)) }),
            ("7", { _ in bigEndian(UInt32(7)) }),
            ("0xFFFFFFFF", { _ in bigEndian(UInt32.max) }),
            ("file size + 1", { offset in bigEndian(UInt32(clamping: data.count - offset + 1)) }),
            ("64-bit Int64.max", { _ in bigEndian(UInt32(1)) }),
            ("64-bit UInt64.max", { _ in bigEndian(UInt32(1)) }),
        ]
        for (offset, type) in boxes {
            for (what, size) in absurd {
                var damaged = data
                damaged.replaceSubrange((damaged.startIndex + offset)..<(damaged.startIndex + offset + 4), with: size(offset))
                if what.hasPrefix("64-bit"), offset + 16 <= data.count {
                    // Declares a 64-bit size over what follows the type (the box's first 8 payload bytes).
                    let large: UInt64 = what.hasSuffix("UInt64.max") ? .max : UInt64(Int64.max)
                    damaged.replaceSubrange((damaged.startIndex + offset + 8)..<(damaged.startIndex + offset + 16), with: bigEndian(large))
                }
                cases.append(Case(label: "\(name) '\(type)' box at \(offset) sized \(what)", data: damaged))
            }
        }
        var random = SeededGenerator(seed: seed)
        var flipRound = 0
        while cases.count < count, !data.isEmpty {
            let flips = [1, 8, 64][flipRound % 3]
            var damaged = data
            for _ in 0..<flips {
                let index = Int.random(in: 0..<damaged.count, using: &random)
                damaged[damaged.startIndex + index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            }
            cases.append(Case(label: "\(name) \(flips) bit flip(s), seed \(seed) round \(flipRound)", data: damaged))
            flipRound += 1
        }
        return cases
    }
}

extension Data {
    func readUInt32(at offset: Int) -> UInt32 {
        self[(startIndex + offset)..<(startIndex + offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    func readUInt64(at offset: Int) -> UInt64 {
        self[(startIndex + offset)..<(startIndex + offset + 8)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
