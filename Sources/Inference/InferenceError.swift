import ReelworkCore

/// A failure of the inference layer: raised by ONNX Runtime itself (then `ortErrorCode` is set and
/// `message` carries ORT's own text) or by Reelwork's checks around it (wrong library path, missing
/// model file, a name or shape that does not fit the model).
///
/// Every inference error is `.internal`: the video is not at fault, and a fixed deploy (a corrected
/// model path, a set-up machine) can make a retry succeed.
public struct InferenceError: Error, ClassifiedError, CustomStringConvertible, Equatable, Sendable {
    public enum Code: String, Sendable, Equatable {
        // Raised by ONNX Runtime (its OrtErrorCode values 1...11; later codes map to `otherRuntimeError`).
        case fail
        case invalidArgument = "invalid_argument"
        case noSuchFile = "no_such_file"
        case noModel = "no_model"
        case engineError = "engine_error"
        case runtimeException = "runtime_exception"
        case invalidProtobuf = "invalid_protobuf"
        case modelLoaded = "model_loaded"
        case notImplemented = "not_implemented"
        case invalidGraph = "invalid_graph"
        case executionProviderFailure = "ep_fail"
        case otherRuntimeError = "other_runtime_error"
        // Raised by Reelwork's own checks.
        /// The ONNX Runtime library is missing, cannot be loaded, is not ONNX Runtime, or is too old.
        case libraryUnavailable = "library_unavailable"
        /// The model file does not exist or is not a regular file.
        case modelMissing = "model_missing"
        /// An input or output name the model does not have (or a required input left out).
        case unknownName = "unknown_name"
        /// A shape or element count that does not fit the model's declared layout.
        case shapeMismatch = "shape_mismatch"
        /// An element type other than float32 where float32 is required.
        case unsupportedType = "unsupported_type"
        /// Invalid session options (negative thread counts).
        case invalidOptions = "invalid_options"

        init(ortErrorCode: Int) {
            switch ortErrorCode {
            case 1: self = .fail
            case 2: self = .invalidArgument
            case 3: self = .noSuchFile
            case 4: self = .noModel
            case 5: self = .engineError
            case 6: self = .runtimeException
            case 7: self = .invalidProtobuf
            case 8: self = .modelLoaded
            case 9: self = .notImplemented
            case 10: self = .invalidGraph
            case 11: self = .executionProviderFailure
            default: self = .otherRuntimeError
            }
        }
    }

    public let code: Code
    /// ONNX Runtime's raw `OrtErrorCode` when ORT raised the error; nil for Reelwork's own checks.
    public let ortErrorCode: Int?
    public let message: String

    public var kind: ErrorKind { .internal }
    public var description: String { message }

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.ortErrorCode = nil
        self.message = message
    }

    init(ortErrorCode: Int, message: String) {
        self.code = Code(ortErrorCode: ortErrorCode)
        self.ortErrorCode = ortErrorCode
        self.message = message
    }
}
