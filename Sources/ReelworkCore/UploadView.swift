import Foundation

/// Where an upload in parts stands (`uploads.status`).
public enum UploadStatus: String, Codable, NamedState {
    /// Parts may be sent.
    case open
    /// `complete` is checking and storing it; no more parts.
    case completing
    /// Its video is recorded (`videoId`).
    case completed
    /// The joined bytes were not what the client declared (size, SHA-256) or not a video we take; nothing was recorded.
    case rejected
    /// The client abandoned it (`DELETE`).
    case aborted
    /// Not completed in time (`REELWORK_UPLOAD_EXPIRY_HOURS`); its parts were dropped.
    case expired

    /// Parts still held in the store, to drop when it expires.
    public static let unfinished: [UploadStatus] = [.open, .completing]
}

/// `POST /v1/uploads`: the file the client will send in parts.
public struct CreateUploadRequest: Codable, Sendable, Equatable {
    public var filename: String?
    public var sizeBytes: Int64
    /// SHA-256 of the whole file, 64 lower-case hex digits: checked against the joined bytes.
    public var sha256: String
    /// Operator keys only: the club the video will belong to.
    public var club: String?

    public init(filename: String?, sizeBytes: Int64, sha256: String, club: String? = nil) {
        self.filename = filename
        self.sizeBytes = sizeBytes
        self.sha256 = sha256
        self.club = club
    }
}

/// An upload in parts and how far it got.
public struct UploadView: Codable, Sendable, Equatable {
    public var id: UUID
    public var club: String
    public var status: UploadStatus
    public var filename: String?
    public var sizeBytes: Int64
    public var sha256: String
    /// Every part is this long but the last, which holds the rest.
    public var partBytes: Int64
    public var partCount: Int
    /// Parts the store holds with the right length, in order (only while open).
    public var partsReceived: [Int]
    public var bytesReceived: Int64
    public var expiresAt: Date
    /// The recorded video, once completed.
    public var videoId: UUID?
    /// Why it was rejected.
    public var error: String?

    public init(id: UUID, club: String, status: UploadStatus, filename: String?, sizeBytes: Int64, sha256: String, partBytes: Int64,
                partCount: Int, partsReceived: [Int], bytesReceived: Int64, expiresAt: Date, videoId: UUID?, error: String?) {
        self.id = id
        self.club = club
        self.status = status
        self.filename = filename
        self.sizeBytes = sizeBytes
        self.sha256 = sha256
        self.partBytes = partBytes
        self.partCount = partCount
        self.partsReceived = partsReceived
        self.bytesReceived = bytesReceived
        self.expiresAt = expiresAt
        self.videoId = videoId
        self.error = error
    }
}

/// `POST /v1/uploads/{id}/parts`: where to send these parts.
public struct UploadPartsRequest: Codable, Sendable, Equatable {
    public var numbers: [Int]
    /// Part URLs one request may ask for.
    public static let maxNumbers = 100

    public init(numbers: [Int]) {
        self.numbers = numbers
    }
}

/// Where one part goes: `PUT` its bytes (exactly `bytes` of them) to `url` before `expiresAt`. A
/// URL of the store carries its own signature and takes no API key; a path (`/v1/uploads/…`) is
/// the coordinator's own and takes the caller's key.
public struct UploadPartTarget: Codable, Sendable, Equatable {
    public var number: Int
    public var url: String
    public var offset: Int64
    public var bytes: Int64
    public var expiresAt: Date

    public init(number: Int, url: String, offset: Int64, bytes: Int64, expiresAt: Date) {
        self.number = number
        self.url = url
        self.offset = offset
        self.bytes = bytes
        self.expiresAt = expiresAt
    }
}

public struct UploadPartsResult: Codable, Sendable, Equatable {
    public var parts: [UploadPartTarget]

    public init(parts: [UploadPartTarget]) {
        self.parts = parts
    }
}
