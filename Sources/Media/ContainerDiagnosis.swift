import CFFmpeg
import ReelworkCore

/// Looks at the raw bytes of a file that libavformat rejected as "Invalid data", to tell a
/// person something more useful: the file is empty, or it is an MP4/QuickTime file that was
/// cut short (the usual case: a recording or upload stopped before the index, the `moov`
/// box at the end, was written).
enum ContainerDiagnosis {
    /// Boxes that may come first in an ISO-BMFF/QuickTime file. Requiring one of them keeps
    /// text or random bytes from being read as boxes.
    private static let leadingBoxTypes: Set<String> = ["ftyp", "styp", "moov", "mdat", "free", "skip", "wide", "pnot", "pdin"]

    /// A message naming the problem, or nil when nothing specific can be said.
    /// Reads a few box headers only (no payload), and only when the input can seek.
    static func problem(at location: MediaLocation, guards: MediaGuards) -> String? {
        let found = location.withBytes(guards: guards) { io -> String? in
            let size = avio_size(io)
            if size == 0 { return "the file is empty" }
            // Walking boxes means seeking; on a server without range requests that would read the whole file.
            guard size > 0, io.pointee.seekable & AVIO_SEEKABLE_NORMAL != 0 else { return nil }
            return truncatedBox(in: io, size: size)
        }
        return (try? found.get()) ?? nil
    }

    /// Walks the top-level boxes; returns a message when one of them claims to extend past
    /// the end of the file.
    private static func truncatedBox(in io: UnsafeMutablePointer<AVIOContext>, size: Int64) -> String? {
        var offset: Int64 = 0
        var sawIndex = false
        while offset + 8 <= size {
            guard avio_seek(io, offset, SEEK_SET) == offset else { return nil }
            var boxSize = Int64(avio_rb32(io))
            let type = fourCC(avio_rb32(io))
            guard let type, offset > 0 || leadingBoxTypes.contains(type) else { return nil }
            if boxSize == 1 { boxSize = Int64(bitPattern: avio_rb64(io)) } // 64-bit size follows
            if boxSize == 0 { return nil } // "extends to the end of the file": nothing is missing
            guard boxSize >= 8 else { return nil } // not a box structure after all
            if type == "moov" { sawIndex = true }
            // A 64-bit size comes from the file: near Int64.max the sum would overflow.
            guard let end = offset.checkedAdding(boxSize), end <= size else {
                let claim = offset.checkedAdding(boxSize).map { "data up to byte \($0)" } ?? "a size of \(boxSize) bytes"
                let missingIndex = sawIndex || type == "moov" ? "" : " and the index ('moov' box) is missing"
                return "truncated video: the file ends at byte \(size) but its '\(type)' box declares \(claim)\(missingIndex)"
            }
            offset = end
        }
        return nil
    }

    /// A box type as text, or nil when the four bytes are not printable ASCII.
    private static func fourCC(_ value: UInt32) -> String? {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
