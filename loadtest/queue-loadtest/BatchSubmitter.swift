import Foundation
import ReelworkClient
import ReelworkCore
import Store

/// Creates jobs the way a club's `submit` does: through the coordinator's HTTP API, a batch per
/// `batchSize` jobs (`POST /v1/batches`, then `POST /v1/batches/{id}/jobs` naming every video at
/// once), `concurrency` batches in flight. The coordinator records each batch's jobs in one
/// statement and enqueues them in one script call.
struct BatchSubmitter {
    let client: CoordinatorClient
    /// Per club, the video ids a batch names (a batch holds one job per video).
    let videos: [String: [UUID]]
    let batchSize: Int
    let concurrency: Int

    func submit(count: Int) async throws {
        let clubs = videos.keys.sorted()
        let batches = stride(from: 0, to: count, by: batchSize).map { (index: $0 / batchSize, size: min(batchSize, count - $0)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var pending = batches.makeIterator()
            func startNext() {
                guard let batch = pending.next() else { return }
                let club = clubs[batch.index % clubs.count]
                let ids = Array(videos[club]!.prefix(batch.size))
                group.addTask { try await submitBatch(club: club, videoIds: ids) }
            }
            for _ in 0..<max(1, concurrency) { startNext() }
            while try await group.next() != nil { startNext() }
        }
    }

    private func submitBatch(club: String, videoIds: [UUID]) async throws {
        let batch = try await client.createBatch(CreateBatchRequest(sport: "tennis", options: .object(["noop": .object([:])]), club: club))
        let added = try await client.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: videoIds, maxAttempts: 3))
        guard added.created == videoIds.count else {
            throw LoadError("batch \(batch.id): \(added.created) of \(videoIds.count) jobs created")
        }
    }

    /// `perClub` video records for each club, all pointing at the stored clip of `template` (only
    /// the content hash differs): a batch names each video once, so a batch of N needs N videos.
    /// Club names here are the driver's own (`club-0`…), so joining them with commas is safe.
    static func recordVideos(copying template: UUID, clubs: [String], perClub: Int, db: PGConnection) throws -> [String: [UUID]] {
        let rows = try db.query("""
            INSERT INTO videos (id, club, content_hash, size_bytes, storage_key, original_name, container, codec, width,
                                height, fps, duration_seconds, frame_count, rotation, frame_count_source)
            SELECT gen_random_uuid(), c, md5(c || ':' || i) || md5(i || ':' || c), size_bytes, storage_key, original_name, container,
                   codec, width, height, fps, duration_seconds, frame_count, rotation, frame_count_source
            FROM videos v, unnest(string_to_array($2, ',')) AS c, generate_series(1, $3) AS i
            WHERE v.id = $1
            RETURNING id, club
            """, [template, clubs.joined(separator: ","), perClub]).rows
        return try Dictionary(grouping: rows, by: { $0["club"] ?? "" }).mapValues { try $0.map { try $0.uuid("id") } }
    }
}
