import Foundation
import ObjectStorage
import TestSupport
import XCTest

final class LocalObjectStoreTests: XCTestCase {
    func testKeysThatCouldLeaveTheStoreAreRefused() {
        XCTAssertTrue(ObjectKey.isValid(ObjectKey.video(sha256: String(repeating: "ab", count: 32))))
        for bad in ["", "../etc/passwd", "videos/../../x", "videos//a", "/videos/a", "videos/a b", "videos/./a", "videos/a?b"] {
            XCTAssertFalse(ObjectKey.isValid(bad), bad)
        }
    }

    func testPutListSizeAndRemove() async throws {
        let scratch = try ScratchDirectory(prefix: "local-store")
        defer { scratch.remove() }
        let store = LocalObjectStore(root: scratch.path("storage"))
        try await store.prepare()
        let spool = UploadSpool(storageDir: scratch.path("storage"))
        try spool.prepare()
        let key = ObjectKey.video(sha256: String(repeating: "c", count: 64))
        let file = spool.newFile()
        try Data("twelve bytes".utf8).write(to: file)
        let stored = try await store.put(file: file, sha256: String(repeating: "c", count: 64), key: key)
        XCTAssertTrue(stored)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "the spool's file was moved, not copied")
        let sizeAfterPut = try await store.size(of: key)
        XCTAssertEqual(sizeAfterPut, 12)
        // The same bytes again: nothing stored, the second file left for the caller to remove.
        let again = spool.newFile()
        try Data("twelve bytes".utf8).write(to: again)
        let storedAgain = try await store.put(file: again, sha256: String(repeating: "c", count: 64), key: key)
        XCTAssertFalse(storedAgain)
        XCTAssertTrue(FileManager.default.fileExists(atPath: again.path))
        let listed = try await store.list(prefix: ObjectKey.videosPrefix)
        XCTAssertEqual(listed.map(\.key), [key], "the spool's files are not objects")
        XCTAssertEqual(listed.first?.bytes, 12)
        XCTAssertEqual(try store.readLocation(key: key, validFor: 60), scratch.path("storage/\(key)"))
        try await store.remove(key: key)
        let sizeAfterRemove = try await store.size(of: key)
        XCTAssertNil(sizeAfterRemove)
        try await store.remove(key: key)  // removing what is not there is not an error
    }

    func testTheSpoolSweepsOnlyStaleFiles() throws {
        let scratch = try ScratchDirectory(prefix: "spool")
        defer { scratch.remove() }
        let spool = UploadSpool(storageDir: scratch.url.path)
        try spool.prepare()
        let old = spool.newFile(), fresh = spool.newFile()
        try Data("a".utf8).write(to: old)
        try Data("b".utf8).write(to: fresh)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-UploadSpool.staleAge - 5)], ofItemAtPath: old.path)
        XCTAssertEqual(spool.sweep(), [old.lastPathComponent])
        XCTAssertTrue(FileManager.default.fileExists(atPath: fresh.path))
    }
}
