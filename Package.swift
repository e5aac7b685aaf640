// swift-tools-version:6.0
import PackageDescription

// C libraries come from Debian's -dev packages (rw_install_deps in scripts/lib/services.sh installs them).

// The modules with pixel loops (the sports, vision, media, the scene renderers) are optimised in
// debug builds too: unoptimised they run 10–100× slower, and the tests run them over whole
// rendered clips. `-enable-testing` still applies, so `@testable import` works, and
// `-assert-config Debug` keeps their `assert`s checked in the tests.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O", "-assert-config", "Debug"], .when(configuration: .debug))]

let package = Package(
    name: "Reelwork",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "reelwork", targets: ["reelwork"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        // SHA-256 of API key secrets; HMAC-SHA256 of webhook signatures.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // Outgoing HTTP: webhook deliveries.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // `/metrics` on the coordinator and on each worker: the swift-metrics API in the code, the
        // Prometheus text format out.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // The dashboard's server-rendered pages.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // HTTPFields for the in-process route tests (HummingbirdTesting's client takes them); Hummingbird depends on it already.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // C modules: module maps plus small inline shims for macros Swift cannot import.
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg"),
        .systemLibrary(name: "CHiredis", path: "Sources/CHiredis"),
        .systemLibrary(name: "CLibpq", path: "Sources/CLibpq"),
        // cairo (Debian's libcairo2-dev): one drawing API for the result pictures (PNG) and reports (PDF).
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // ONNX Runtime C API, declared by the project (no package ships the header); loaded with dlopen at run time.
        .target(name: "COnnxRuntime", path: "Sources/COnnxRuntime", publicHeadersPath: "include"),

        // Domain types, configuration, error taxonomy: no I/O.
        .target(name: "ReelworkCore"),
        // Threads for blocking work, Foundation only: the pool of blocking connections, the periodic
        // loop, a value behind a lock.
        .target(name: "Threading"),
        // FFmpeg: probe, decode, frame quality, content hashing.
        .target(name: "Media", dependencies: ["CFFmpeg", "ReelworkCore"], swiftSettings: optimizedInDebug),
        // Redis client (hiredis) and the job queue.
        .target(name: "Queue", dependencies: ["CHiredis", "ReelworkCore", .product(name: "Logging", package: "swift-log"),
                                              .product(name: "Metrics", package: "swift-metrics")]),
        // Webhooks: secrets, Standard Webhooks signatures, the URL policy, the retry schedule, the
        // payload, what a send came to. No database (the outbox is Store's) and no HTTP client, so
        // Store may use its types.
        .target(name: "Webhooks", dependencies: [
            "ReelworkCore",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        // The HTTP sender: only the coordinator's dispatcher sends.
        .target(name: "WebhookSending", dependencies: [
            "Webhooks",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // Where videos are kept, as one protocol: `ObjectStore`, its local folder and the upload
        // spool. Foundation only, so Store may list what is stored.
        .target(name: "ObjectStorage", dependencies: ["ReelworkCore"]),
        // The S3-compatible store: Signature V4 (swift-crypto) and the REST calls (async-http-client).
        .target(name: "S3Storage", dependencies: [
            "ObjectStorage", "ReelworkCore",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // PostgreSQL client (libpq), pool, migrations, repositories.
        .target(name: "Store", dependencies: ["CLibpq", "ObjectStorage", "ReelworkCore", "Threading", "Webhooks", .product(name: "Logging", package: "swift-log"),
                                              .product(name: "Crypto", package: "swift-crypto"),
                                              .product(name: "Metrics", package: "swift-metrics")]),
        // The stages of a run, shared by the worker and `reelwork analyze`.
        .target(name: "Pipeline", dependencies: ["Media", "Vision", "SportKit", "Sports", "ReelworkCore"], swiftSettings: optimizedInDebug),
        // What a sport is to the rest of Reelwork (`SportPlugin`): its plan, options, analysis, rows
        // and drawing. No model runtime, so the coordinator checks options without linking one.
        .target(name: "SportKit", dependencies: ["Media", "Pictures", "ReelworkCore"], swiftSettings: optimizedInDebug),
        // The math more than one sport uses, in one place: plane-to-plane maps (homographies), small
        // linear solves, the options' HSV colour and its match, a seeded generator. No I/O.
        .target(name: "SportMath", dependencies: ["ReelworkCore"], swiftSettings: optimizedInDebug),
        // The registry of sports: `Sport` → its plug-in. Adding a sport adds its module here.
        .target(name: "Sports", dependencies: ["SportKit", "Archery", "Basketball", "Bowling", "Tennis", "Pictures", "ReelworkCore"]),
        // Bowling: ball detection and tracking on decoded frames, lane calibration, shot metrics (seeds 000, 003), its plug-in
        // and its picture (BowlingPicture, drawn with Pictures' canvas).
        // Not optimised in debug builds: Swift 6.3.1 crashes optimising BallDetector outside
        // whole-module mode (release builds are whole-module and fine).
        .target(name: "Bowling", dependencies: ["Media", "Pictures", "SportKit", "SportMath", "ReelworkCore"]),
        // Results drawn (cairo): the canvas each sport's picture (in its own module) draws with over
        // frames of its own video, as PNG, and session and batch reports as PDF.
        .target(name: "Pictures", dependencies: ["CCairo", "Media", "ReelworkCore"], swiftSettings: optimizedInDebug),
        // Archery: the target face from its rings (a homography, so faces up to 35° off axis score
        // right), arrow impacts, seed 002's scoring with the line-cutter rule, corrections, video
        // arrivals (seed 002). Pure Swift on RGB buffers; no I/O. Its plug-in (ArcheryPlugin.swift,
        // ArcheryAnalysis.swift) and its picture (ArcheryPicture.swift) are the only parts that see SportKit,
        // Pictures and Media's frames.
        .target(name: "Archery", dependencies: ["Media", "Pictures", "SportKit", "SportMath", "ReelworkCore"], swiftSettings: optimizedInDebug),
        // Basketball: the rim, the ball tracked on every frame (colour and motion, the detector's
        // sports-ball boxes on its sampled frames as extra evidence), attempts, makes and seed 001's
        // shooting stats. No I/O. Its plug-in (BasketballPlugin, BasketballAnalysis) and picture
        // (BasketballPicture) add SportKit, Media and Pictures; the core files use ReelworkCore and SportMath only.
        .target(name: "Basketball", dependencies: ["Media", "Pictures", "SportKit", "SportMath", "ReelworkCore"], swiftSettings: optimizedInDebug),
        // Tennis: swings, keyframes and swing metrics from pose tracks (seed 004), its plug-in and its picture
        // (TennisPicture: keyframes of its own video, so Media). No I/O.
        .target(name: "Tennis", dependencies: ["Media", "Pictures", "SportKit", "ReelworkCore"], swiftSettings: optimizedInDebug),
        // ONNX Runtime sessions: model loading, float32 tensors, runs with reused buffers.
        .target(name: "Inference", dependencies: ["COnnxRuntime", "ReelworkCore"]),
        // Detector and pose models on decoded frames: YOLO and BlazePose decoders, person tracking.
        .target(name: "Vision", dependencies: ["Inference", "Media", "ReelworkCore", "Threading",
                                               .product(name: "Metrics", package: "swift-metrics")], swiftSettings: optimizedInDebug),
        // HTTP client for the coordinator's API (the CLI and the integration tests use it).
        .target(name: "ReelworkClient", dependencies: ["ReelworkCore"]),
        // The API's OpenAPI 3.1 document (openapi/openapi.json), compiled into the binary: a deployed
        // coordinator serves it without a resource bundle beside the executable.
        .target(name: "APIDocument", path: "openapi", resources: [.embedInCode("openapi.json")]),
        // Metrics: the process's registry in Prometheus's text format, scrape access (an operator key
        // or the scrape token), and the small HTTP listener a worker serves `/metrics` on.
        .target(name: "Telemetry", dependencies: [
            "ReelworkCore", "Store", "Threading",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // The dashboard's Mustache templates, compiled into the binary like the API document.
        .target(name: "DashboardTemplates", path: "Sources/DashboardTemplates",
                resources: ["layout", "login", "overview", "jobs", "confirm", "failed", "job", "stages", "batches", "workers", "message"]
                    .map { .embedInCode("\($0).mustache") } + [.embedInCode("dashboard.css"), .embedInCode("dashboard.js")]),
        .target(name: "Coordinator", dependencies: [
            "ReelworkCore", "Media", "ObjectStorage", "S3Storage", "Queue", "Store", "SportKit", "Sports", "Threading", "Webhooks", "WebhookSending",
            "APIDocument", "Telemetry", "Pictures",
            "DashboardTemplates", .product(name: "Mustache", package: "swift-mustache"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Metrics", package: "swift-metrics"),
        ]),
        .target(name: "Worker", dependencies: [
            "ReelworkCore", "Media", "ObjectStorage", "S3Storage", "Queue", "Store", "Pipeline", "Sports", "Threading", "Telemetry",
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "reelwork", dependencies: [
            "ReelworkCore", "Media", "Queue", "Store", "Pipeline", "Coordinator", "Worker", "ReelworkClient", "Telemetry", "Pictures",
            "SportKit", "Sports", "ObjectStorage", "S3Storage",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        ]),
        // The queue's load and chaos driver (loadtest/queue-bench.sh runs it beside redis-benchmark and pgbench).
        .executableTarget(name: "queue-loadtest", dependencies: [
            "ReelworkCore", "ReelworkClient", "Store", "ObjectStorage", "Queue", "Media", "Threading",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Histogram", package: "hdrhistogram-swift"),
        ], path: "loadtest/queue-loadtest"),
        .executableTarget(name: "decode-bench", dependencies: ["Media", "ReelworkCore"], path: "loadtest/decode-bench"),
        // Fuzzing helpers, Foundation only: damaged videos made from real ones (cuts, bit flips,
        // absurd box sizes) and a seeded generator, for the fuzz tests and the fuzz driver.
        .target(name: "FuzzSupport", path: "loadtest/FuzzSupport"),
        // Thousands of damaged videos through probe and decode, in one process (loadtest/media-fuzz.sh).
        .executableTarget(name: "media-fuzz", dependencies: ["FuzzSupport", "Media", "ReelworkCore",
                                                             .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "loadtest/media-fuzz"),
        // The `MODE FILE [--flag VALUE]...` command line the sport benches share, and `Duration.seconds`. Foundation only.
        .target(name: "BenchSupport", path: "loadtest/BenchSupport"),
        .executableTarget(name: "bowling-bench", dependencies: ["BenchSupport", "Bowling", "BowlingScenes", "Media", "ReelworkCore"],
                          path: "loadtest/bowling-bench"),
        // Archery on a 12-megapixel photo (loadtest/archery-bench.sh).
        .executableTarget(name: "archery-bench", dependencies: ["Archery", "ArcheryScenes", "ReelworkCore"],
                          path: "loadtest/archery-bench"),
        .executableTarget(name: "basketball-bench", dependencies: ["BenchSupport", "Basketball", "BasketballScenes", "SceneVideo", "ReelworkCore"],
                          path: "loadtest/basketball-bench"),
        // The tennis swing detector on generated pose sequences against their truth (loadtest/accuracy-bench.sh tennis).
        .executableTarget(name: "tennis-bench", dependencies: ["ReelworkCore", "SportKit", "Tennis", "TennisScenes"],
                          path: "loadtest/tennis-bench"),
        .executableTarget(name: "vision-bench", dependencies: ["Media", "Inference", "Vision", "Pipeline", "ReelworkCore", "Sports", "Tennis", "Threading"],
                          path: "loadtest/vision-bench"),

        .testTarget(name: "ReelworkCoreTests", dependencies: ["ReelworkCore", "Sports", "SportMath", "Archery", "Basketball", "Bowling", "Tennis"]),
        .testTarget(name: "ThreadingTests", dependencies: ["Threading", "ReelworkCore"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "ReelworkCore", "TestSupport", "FuzzSupport", "Threading"]),
        // Signature V4 against AWS's published examples, settings, keys, both stores (the bucket a
        // real `rclone serve s3` on 127.0.0.1 that the test starts).
        .testTarget(name: "ObjectStorageTests", dependencies: ["ObjectStorage", "S3Storage", "ReelworkCore", "TestSupport"]),
        // The sports' tables (Bowling, Tennis, the registry's) as the worker hands them to the store.
        .testTarget(name: "StoreTests", dependencies: ["Store", "ReelworkCore", "Threading", "TestSupport", "Webhooks",
                                                       "Sports", "SportKit", "Archery", "Bowling", "Tennis"]),
        // The long-lived loops in process: maintenance rounds, lease renewal, the maintenance lock,
        // webhook dispatch.
        .testTarget(name: "BackgroundWorkTests", dependencies: ["Coordinator", "Worker", "Queue", "Store", "ReelworkCore", "Threading",
                                                                "TestSupport", "Webhooks", "Sports", "Tennis"]),
        .testTarget(name: "QueueTests", dependencies: ["Queue", "ReelworkCore", "TestSupport"]),
        // Signatures (the specification's vector), URL policy, schedule, payload, and the sender
        // against a receiver that verifies with the `standardwebhooks` PyPI package.
        .testTarget(name: "WebhooksTests", dependencies: ["Webhooks", "WebhookSending", "ReelworkCore", "TestSupport"]),
        .testTarget(name: "InferenceTests", dependencies: ["Inference", "ReelworkCore", "Threading"], exclude: ["Fixtures"]),
        .testTarget(name: "VisionTests", dependencies: ["Vision", "Inference", "Media", "Pipeline", "ReelworkCore", "Sports", "TestSupport",
                                                        "SportKit", "Archery", "Basketball", "Bowling", "Tennis"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "BowlingTests", dependencies: ["Bowling", "BowlingScenes", "Media", "Pipeline", "ReelworkCore", "SportMath",
                                                         "TestSupport", "FuzzSupport"]),
        // Pictures and reports drawn over real frames, read back with FFmpeg and poppler.
        .testTarget(name: "PicturesTests", dependencies: ["Pictures", "Media", "ReelworkCore", "BowlingScenes", "BasketballScenes", "ArcheryScenes", "Sports",
                                                         "Archery", "Basketball", "Bowling", "Tennis", "TestSupport"]),
        .testTarget(name: "TennisTests", dependencies: ["Tennis", "TennisScenes", "SportKit", "Pipeline", "Media", "Vision", "ReelworkCore",
                                                        "TestSupport"]),
        // Pose sequences of a tennis player with known truth (swings, contacts, types), drawn by seed:
        // speed, handedness, camera, noise, missing frames, passers-by, idle motions. The pose stage's
        // output only (no pictures), for the tennis tests and benchmark. Foundation, SportKit's
        // SampledVision and SportMath's seeded generator.
        .target(name: "TennisScenes", dependencies: ["ReelworkCore", "SportKit", "SportMath"], path: "Fixtures/TennisScenes", swiftSettings: optimizedInDebug),
        .target(name: "TestSupport", dependencies: ["ReelworkCore", "Store"], path: "Tests/TestSupport"),
        // Deterministic bowling clips with known truth (a pinhole camera over a lane, a ball with a
        // marker), for the tests, the sample clips and the ball-stage benchmark. Foundation, and SportMath's
        // seeded generator for the camera noise.
        .target(name: "BowlingScenes", dependencies: ["SceneVideo", "SportMath"], path: "Fixtures/BowlingScenes", swiftSettings: optimizedInDebug),
        // Rendered frames to an H.264/HEVC clip and back with the ffmpeg CLI (no Media module), for
        // the scenes, the tests and the benchmarks.
        .target(name: "SceneVideo", path: "Fixtures/SceneVideo", swiftSettings: optimizedInDebug),
        // Deterministic side-view shooting sessions with known truth (makes, bank shots, rim-outs,
        // airballs, dribbles, passes), for the basketball tests and benchmark. Foundation, and SportMath's
        // seeded generator for the camera noise.
        .target(name: "BasketballScenes", dependencies: ["SceneVideo", "SportMath"], path: "Fixtures/BasketballScenes", swiftSettings: optimizedInDebug),
        // Basketball on rendered sessions, raw and through H.264 (SceneVideo).
        .testTarget(name: "BasketballTests", dependencies: ["Basketball", "BasketballScenes", "SceneVideo", "Pipeline", "ReelworkCore",
                                                           "SportMath", "TestSupport", "Vision"]),
        // Target faces with arrows through a pinhole camera, with known truth (positions, scores),
        // for the archery tests and benchmark. Foundation, and SportMath's seeded generator for the
        // camera noise.
        .target(name: "ArcheryScenes", dependencies: ["SportMath"], path: "Fixtures/ArcheryScenes", swiftSettings: optimizedInDebug),
        .testTarget(name: "ArcheryTests", dependencies: ["Archery", "ArcheryScenes", "Media", "SportKit", "ReelworkCore"]),
        // The CLI's own logic in process (`@testable import reelwork`): confirmations, the watch log, submit's resumption line.
        .testTarget(name: "CLITests", dependencies: ["reelwork", "ReelworkClient", "ReelworkCore"]),
        .testTarget(name: "IntegrationTests", dependencies: ["ReelworkCore", "Store", "Queue", "Media", "ReelworkClient", "TestSupport", "Coordinator", "Sports", "Archery", "Basketball", "Tennis", "ObjectStorage", "S3Storage",
                                                             "BowlingScenes", "ArcheryScenes", "BasketballScenes", "SceneVideo", "FuzzSupport", "Threading", "Webhooks",
                                                             .product(name: "Hummingbird", package: "hummingbird"),
                                                             .product(name: "HummingbirdTesting", package: "hummingbird"),
                                                             .product(name: "HTTPTypes", package: "swift-http-types"),
                                                             .product(name: "NIOCore", package: "swift-nio")]),
    ],
    swiftLanguageModes: [.v6]
)

// Every target: an extension member is visible only where its module is imported (no accidental
// reliance on a transitive import).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
