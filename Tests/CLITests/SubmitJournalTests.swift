import Foundation
@testable import reelwork
import XCTest

/// What `reelwork submit` says when it takes up an earlier run of the same command.
final class SubmitJournalTests: XCTestCase {
    func testResumingSaysWhichBatchAndHowManyFilesWereSent() {
        let files = (1...5).map { "/season/clip-\($0).mp4" }
        var journal = SubmitJournal()
        for (i, path) in files.enumerated() {
            journal.files[path] = .init(size: 1, modified: 0, hash: "h\(i)", videoId: i < 3 ? UUID() : nil)
        }
        XCTAssertEqual(journal.resumption(files), "resuming an interrupted submit (3 of 5 files sent; the batch is made once the rest are)")
        journal.batchId = UUID(uuidString: "26c6e8de-1111-4222-8333-444455556666")
        XCTAssertEqual(journal.resumption(files), "resuming batch 26c6e8de (3 of 5 files sent)")
        for path in files {
            let video = journal.files[path]?.videoId ?? UUID()
            journal.files[path]?.videoId = video
            journal.jobs[path] = UUID()
        }
        XCTAssertEqual(journal.resumption(files), "batch 26c6e8de has a job for every file already (5 of 5 files sent by an earlier run)")
        XCTAssertNil(SubmitJournal().resumption(files), "nothing sent: nothing to resume")
    }
}
