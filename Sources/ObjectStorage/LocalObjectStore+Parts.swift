import Foundation

/// Uploads in parts in the storage folder: part `n` of the upload joined at `key` is the file
/// `<key>.parts/<n>`, renamed into place once the coordinator has received all of it, so a part
/// that is there is whole. Joining appends them to `<key>` in order.
extension LocalObjectStore: PartUploads {
    public var partsComeThroughCoordinator: Bool { true }

    func partsFolder(_ key: String) -> URL {
        root.appendingPathComponent(key + ".parts", isDirectory: true)
    }

    public func beginParts(key: String, parts: Int) async throws -> String? {
        try ObjectKey.check(key)
        do {
            try FileManager.default.createDirectory(at: partsFolder(key), withIntermediateDirectories: true)
        } catch {
            throw ObjectStoreError(.unavailable, "cannot make a folder for the parts of \(key) in \(location): \(error.localizedDescription)")
        }
        return nil
    }

    public func partURL(key: String, uploadId: String?, number: Int, validFor seconds: Int) throws -> String? { nil }

    public func receivePart(key: String, number: Int, file: URL) async throws {
        try ObjectKey.check(key)
        let folder = partsFolder(key)
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw ObjectStoreError(.invalid, "no upload is open at \(key) in \(location)")
        }
        let destination = folder.appendingPathComponent(String(number))
        do {
            // rename(2) replaces a part sent before: the last whole copy wins.
            if rename(file.path, destination.path) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            throw ObjectStoreError(.unavailable, "cannot keep part \(number) of \(key) in \(location): \(error.localizedDescription)")
        }
    }

    public func receivedParts(key: String, uploadId: String?) async throws -> [ReceivedPart] {
        try ObjectKey.check(key)
        let folder = partsFolder(key)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name -> ReceivedPart? in
            guard let number = Int(name), number > 0,
                  let size = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.size] as? NSNumber
            else { return nil }
            return ReceivedPart(number: number, bytes: size.int64Value)
        }.sorted { $0.number < $1.number }
    }

    public func joinParts(key: String, uploadId: String?, parts: [ReceivedPart]) async throws {
        try ObjectKey.check(key)
        let folder = partsFolder(key)
        let joined = root.appendingPathComponent(key)
        let fm = FileManager.default
        do {
            guard fm.createFile(atPath: joined.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: joined.path])
            }
            let out = try FileHandle(forWritingTo: joined)
            defer { try? out.close() }
            for part in parts.sorted(by: { $0.number < $1.number }) {
                let input = try FileHandle(forReadingFrom: folder.appendingPathComponent(String(part.number)))
                defer { try? input.close() }
                while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty { try out.write(contentsOf: chunk) }
            }
        } catch {
            try? fm.removeItem(at: joined)
            throw ObjectStoreError(.unavailable, "cannot join the parts of \(key) in \(location): \(error.localizedDescription)")
        }
        try? fm.removeItem(at: folder)
    }

    public func dropParts(key: String, uploadId: String?) async throws {
        try ObjectKey.check(key)
        for url in [partsFolder(key), root.appendingPathComponent(key)] where FileManager.default.fileExists(atPath: url.path) {
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                throw ObjectStoreError(.unavailable, "cannot remove \(url.path): \(error.localizedDescription)")
            }
        }
    }

    public func move(from source: String, to destination: String) async throws -> Bool {
        try ObjectKey.check(source)
        let placed = try await put(file: root.appendingPathComponent(source), sha256: "", key: destination)
        if !placed { try await remove(key: source) }
        return placed
    }
}
