import COnnxRuntime
import Foundation

/// The ONNX Runtime shared library, loaded at run time, with its environment.
///
/// The library is not linked at build time: `load(libraryPath:)` opens it with `dlopen`, so Reelwork
/// builds and runs without it and a wrong path is a clear error. Load one per process and share it: it is
/// immutable after loading and safe to use from any thread. Sessions keep their runtime alive.
///
/// Configuration: the library path defaults to `models/onnxruntime/libonnxruntime.so.1.31.1` relative to
/// the working directory (where `scripts/setup-models.sh` puts it) and is overridden by the environment
/// variable `REELWORK_ORT_LIBRARY`.
public final class OnnxRuntime: @unchecked Sendable {
    // Safe: immutable after loading; ONNX Runtime's API table and environment are thread-safe.
    /// Environment variable naming the ONNX Runtime library (`REELWORK_ORT_LIBRARY`).
    public static let libraryPathVariable = "REELWORK_ORT_LIBRARY"
    /// Where `scripts/setup-models.sh` puts the library, relative to the working directory.
    public static let defaultLibraryPath = "models/onnxruntime/libonnxruntime.so.1.31.1"
    /// The ONNX Runtime C API version Reelwork's declaration matches and requests from the library.
    public static let apiVersion = Int(REELWORK_ORT_API_VERSION)

    /// `REELWORK_ORT_LIBRARY` when set and not empty, else `defaultLibraryPath`.
    public static func configuredLibraryPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment[libraryPathVariable], !path.isEmpty { return path }
        return defaultLibraryPath
    }

    /// The library's own version string, e.g. "1.31.1".
    public let version: String
    /// The path the library was loaded from, as given.
    public let libraryPath: String

    let api: UnsafePointer<OrtApi>
    let env: OpaquePointer
    /// Describes plain CPU memory; used to wrap Reelwork's buffers as tensors.
    let cpuMemoryInfo: OpaquePointer
    /// ORT's default CPU allocator (owned by ORT, never freed); frees names ORT allocates.
    let allocator: OpaquePointer

    /// Loads the library at `libraryPath` and creates the ONNX Runtime environment.
    ///
    /// Throws `InferenceError` with code `.libraryUnavailable` naming the path when the file is missing,
    /// cannot be loaded, is not ONNX Runtime, or is older than API version `apiVersion`; other failures
    /// carry ORT's own message.
    public static func load(libraryPath: String = configuredLibraryPath()) throws -> OnnxRuntime {
        try OnnxRuntime(libraryPath: libraryPath)
    }

    private init(libraryPath: String) throws {
        self.libraryPath = libraryPath
        let shown = Self.describe(path: libraryPath)
        if libraryPath.contains("/") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: libraryPath, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw InferenceError(.libraryUnavailable,
                    "ONNX Runtime library not found at \(shown) (set \(Self.libraryPathVariable) or run scripts/setup-models.sh)")
            }
        }
        var errorText = [CChar](repeating: 0, count: 1024)
        guard let base = reelwork_ort_load(libraryPath, &errorText, errorText.count) else {
            throw InferenceError(.libraryUnavailable,
                "cannot load ONNX Runtime library at \(shown): \(String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        let versionString = base.pointee.GetVersionString().map { String(cString: $0) } ?? "unknown"
        guard let api = base.pointee.GetApi(UInt32(REELWORK_ORT_API_VERSION)) else {
            throw InferenceError(.libraryUnavailable,
                "ONNX Runtime library at \(shown) (version \(versionString)) does not provide C API version \(REELWORK_ORT_API_VERSION); a newer library is needed")
        }
        var missingSlot: Int32 = -1
        guard reelwork_ort_check_slots(api, &missingSlot) == 1 else {
            throw InferenceError(.libraryUnavailable,
                "ONNX Runtime library at \(shown) (version \(versionString)) has no function in C API slot \(missingSlot)")
        }
        self.api = api
        self.version = versionString

        var env: OpaquePointer?
        try Self.check(api, api.pointee.CreateEnv(ORT_LOGGING_LEVEL_WARNING, "reelwork", &env), "creating the ONNX Runtime environment")
        guard let env else { throw InferenceError(.fail, "ONNX Runtime returned no environment") }

        var memoryInfo: OpaquePointer?
        if let status = api.pointee.CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &memoryInfo) {
            api.pointee.ReleaseEnv(env)
            throw Self.error(api, status, "creating the CPU memory description")
        }
        var allocator: OpaquePointer?
        if let status = api.pointee.GetAllocatorWithDefaultOptions(&allocator) {
            api.pointee.ReleaseMemoryInfo(memoryInfo)
            api.pointee.ReleaseEnv(env)
            throw Self.error(api, status, "getting the default allocator")
        }
        self.env = env
        self.cpuMemoryInfo = memoryInfo!
        self.allocator = allocator!
    }

    deinit {
        api.pointee.ReleaseMemoryInfo(cpuMemoryInfo)
        api.pointee.ReleaseEnv(env)
    }

    // MARK: - Status handling (internal)

    /// Throws the error `status` describes (and releases it); does nothing for a nil (success) status.
    /// `context` is only evaluated on failure, so the success path allocates nothing.
    @inline(__always)
    func check(_ status: OpaquePointer?, _ context: @autoclosure () -> String) throws {
        if let status { throw Self.error(api, status, context()) }
    }

    @inline(__always)
    static func check(_ api: UnsafePointer<OrtApi>, _ status: OpaquePointer?, _ context: @autoclosure () -> String) throws {
        if let status { throw error(api, status, context()) }
    }

    /// Turns an OrtStatus into an InferenceError carrying ORT's code and message, and releases it.
    static func error(_ api: UnsafePointer<OrtApi>, _ status: OpaquePointer, _ context: String) -> InferenceError {
        let code = Int(api.pointee.GetErrorCode(status).rawValue)
        let text = api.pointee.GetErrorMessage(status).map { String(cString: $0) } ?? "(no message)"
        api.pointee.ReleaseStatus(status)
        return InferenceError(ortErrorCode: code, message: "ONNX Runtime error while \(context): \(text)")
    }

    /// Makes an OrtStatus through ORT's own CreateStatus and converts it back (tests the status entries).
    func roundTripStatus(code: Int, message: String) -> InferenceError? {
        guard let status = api.pointee.CreateStatus(OrtErrorCode(rawValue: UInt32(code)), message) else { return nil }
        return Self.error(api, status, "testing")
    }

    static func describe(path: String) -> String {
        if path.hasPrefix("/") || !path.contains("/") { return "'\(path)'" }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return "'\(path)' (\(absolute))"
    }
}
