import COnnxRuntime
import ReelworkCore

/// The element type of a model input or output.
public enum TensorElementType: Equatable, Hashable, Sendable, CustomStringConvertible {
    case float32, uint8, int8, uint16, int16, int32, int64, string, bool, float16, float64, uint32, uint64
    case complex64, complex128, bfloat16
    /// ONNX's "undefined" type, or an input/output that is not a tensor (a sequence or map).
    case undefined
    /// A type code this declaration does not know (a newer ONNX type).
    case other(Int)

    init(onnx code: Int) {
        switch code {
        case 1: self = .float32
        case 2: self = .uint8
        case 3: self = .int8
        case 4: self = .uint16
        case 5: self = .int16
        case 6: self = .int32
        case 7: self = .int64
        case 8: self = .string
        case 9: self = .bool
        case 10: self = .float16
        case 11: self = .float64
        case 12: self = .uint32
        case 13: self = .uint64
        case 14: self = .complex64
        case 15: self = .complex128
        case 16: self = .bfloat16
        case 0: self = .undefined
        default: self = .other(code)
        }
    }

    public var description: String {
        switch self {
        case .float32: return "float32"
        case .uint8: return "uint8"
        case .int8: return "int8"
        case .uint16: return "uint16"
        case .int16: return "int16"
        case .int32: return "int32"
        case .int64: return "int64"
        case .string: return "string"
        case .bool: return "bool"
        case .float16: return "float16"
        case .float64: return "float64"
        case .uint32: return "uint32"
        case .uint64: return "uint64"
        case .complex64: return "complex64"
        case .complex128: return "complex128"
        case .bfloat16: return "bfloat16"
        case .undefined: return "undefined"
        case .other(let code): return "onnx type \(code)"
        }
    }
}

/// What a model declares about one input or output.
public struct TensorInfo: Equatable, Sendable, CustomStringConvertible {
    public let name: String
    public let elementType: TensorElementType
    /// Dimensions as declared; -1 for a dynamic dimension.
    public let shape: [Int]
    /// The symbolic name of each dimension ("batch"), nil where the model gives none.
    public let dimensionNames: [String?]

    public init(name: String, elementType: TensorElementType, shape: [Int], dimensionNames: [String?]? = nil) {
        self.name = name
        self.elementType = elementType
        self.shape = shape
        self.dimensionNames = dimensionNames ?? Array(repeating: nil, count: shape.count)
    }

    /// True when no dimension is dynamic.
    public var isFixed: Bool { !shape.contains { $0 < 0 } }

    public var description: String { "\(name): \(elementType) \(formatShape(shape, names: dimensionNames))" }
}

/// A float32 tensor held in a Swift array (the convenience `InferenceSession.run(_:outputs:)` path).
public struct Tensor: Equatable, Sendable {
    public var shape: [Int]
    public var data: [Float]

    /// `data` must hold exactly the product of `shape` values (checked when the tensor is run).
    public init(shape: [Int], data: [Float]) {
        self.shape = shape
        self.data = data
    }

    public var elementCount: Int { shape.reduce(1, *) }
}

/// A float32 buffer of fixed shape that Reelwork owns, already wrapped as an ONNX Runtime tensor.
///
/// Made by `InferenceSession.makeBinding`. Write inputs into it before `run`, read outputs after; the memory
/// never moves and is reused by every run, so the hot path copies and allocates nothing. Not thread-safe:
/// one caller at a time (the same as its binding).
public final class TensorBuffer: @unchecked Sendable {
    // Safe: the C buffer is confined to one caller at a time, like its binding.
    public let name: String
    public let shape: [Int]
    /// Number of elements (the product of `shape`).
    public let count: Int

    /// The elements: write inputs here, read outputs here (`ImageResampler` and `DetectionDecoder` take it).
    public let elements: FixedBuffer<Float>
    /// `elements`' address, which ONNX Runtime's value keeps: the block never moves while `elements` lives,
    /// and the value is released with this object.
    let storage: UnsafeMutablePointer<Float>
    let byteCount: Int
    /// The OrtValue over `storage`; replaced only if ORT ever hands back another buffer for an output.
    var value: OpaquePointer
    private let runtime: OnnxRuntime

    init(runtime: OnnxRuntime, name: String, shape: [Int]) throws {
        self.runtime = runtime
        self.name = name
        self.shape = shape
        self.count = shape.reduce(1, *)
        self.byteCount = count * MemoryLayout<Float>.stride
        let elements = FixedBuffer<Float>(count: count, repeating: 0)
        let storage = elements.withUnsafeMutableBufferPointer { $0.baseAddress! }
        self.elements = elements
        self.storage = storage
        self.value = try TensorBuffer.makeValue(runtime: runtime, storage: storage, byteCount: byteCount, shape: shape, name: name)
    }

    deinit {
        runtime.api.pointee.ReleaseValue(value)
    }

    static func makeValue(runtime: OnnxRuntime, storage: UnsafeMutablePointer<Float>, byteCount: Int,
                          shape: [Int], name: String) throws -> OpaquePointer {
        let dims = shape.map { Int64($0) }
        var value: OpaquePointer?
        try dims.withUnsafeBufferPointer { dimsPointer in
            try runtime.check(
                runtime.api.pointee.CreateTensorWithDataAsOrtValue(
                    runtime.cpuMemoryInfo, storage, byteCount, dimsPointer.baseAddress, dims.count,
                    ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT, &value),
                "wrapping buffer '\(name)' \(formatShape(shape)) as a tensor")
        }
        return value!
    }

    /// Element `index` (0 ..< count, row-major).
    public subscript(index: Int) -> Float {
        get {
            precondition(index >= 0 && index < count, "index \(index) out of range for '\(name)' (\(count) elements)")
            return storage[index]
        }
        set {
            precondition(index >= 0 && index < count, "index \(index) out of range for '\(name)' (\(count) elements)")
            storage[index] = newValue
        }
    }

    /// Direct access to the elements for filling or reading without copies. The pointer must not escape `body`.
    public func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        try body(UnsafeMutableBufferPointer(start: storage, count: count))
    }

    /// Read-only access to the elements without copies. The pointer must not escape `body`.
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage, count: count))
    }

    /// Copies `values` in; throws `.shapeMismatch` unless there are exactly `count` of them.
    public func assign<C: Collection>(_ values: C) throws where C.Element == Float {
        guard values.count == count else {
            throw InferenceError(.shapeMismatch,
                "'\(name)' has shape \(formatShape(shape)) (\(count) values); got \(values.count) values")
        }
        _ = UnsafeMutableBufferPointer(start: storage, count: count).initialize(from: values)
    }

    /// A copy of the elements.
    public var array: [Float] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// A copy as a `Tensor`.
    public var tensor: Tensor { Tensor(shape: shape, data: array) }
}

func formatShape(_ shape: [Int], names: [String?]? = nil) -> String {
    let parts = shape.enumerated().map { index, dim -> String in
        if dim >= 0 { return String(dim) }
        if let names, index < names.count, let name = names[index] { return name }
        return "?"
    }
    return "[" + parts.joined(separator: ", ") + "]"
}
