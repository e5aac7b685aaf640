import COnnxRuntime
import Foundation

/// How a session runs.
public struct SessionOptions: Equatable, Sendable {
    /// Threads used inside one operator (0 = ONNX Runtime's default, all cores). 1 runs on the caller's thread.
    public var intraOpThreads: Int
    /// Threads running independent operators at once; only used when `parallelExecution` is true.
    public var interOpThreads: Int
    /// Run independent branches of the graph in parallel (ORT_PARALLEL) instead of one by one.
    public var parallelExecution: Bool
    /// Apply all of ONNX Runtime's graph optimizations (ORT_ENABLE_ALL); false disables them.
    public var optimize: Bool
    /// Let the intra-op worker threads busy-wait for the next piece of work (ONNX Runtime's default).
    /// False makes them sleep instead (`session.intra_op.allow_spinning = 0`): a little latency per
    /// operator, but idle sessions then leave the cores to whatever else runs in the process (another
    /// session, a video decoder) instead of spinning on them.
    public var allowSpinning: Bool

    public init(intraOpThreads: Int = 1, interOpThreads: Int = 1, parallelExecution: Bool = false, optimize: Bool = true,
                allowSpinning: Bool = true) {
        self.intraOpThreads = intraOpThreads
        self.interOpThreads = interOpThreads
        self.parallelExecution = parallelExecution
        self.optimize = optimize
        self.allowSpinning = allowSpinning
    }
}

/// One loaded ONNX model.
///
/// Thread-compatible: use it from one caller at a time. (ONNX Runtime's own `Run` is thread-safe and the
/// session keeps no per-run state, so runs with distinct bindings may overlap, but callers should not
/// rely on more than one caller per session.) Releases its ONNX Runtime session when deallocated.
public final class InferenceSession: @unchecked Sendable {
    // Safe: immutable after init; `session` is a C handle ONNX Runtime lets several threads run.
    public let runtime: OnnxRuntime
    public let modelPath: String
    public let options: SessionOptions
    /// The model's inputs, in the model's order.
    public let inputs: [TensorInfo]
    /// The model's outputs, in the model's order.
    public let outputs: [TensorInfo]

    let session: OpaquePointer

    /// Loads the model at `modelPath`.
    ///
    /// Throws `.modelMissing` naming the path when there is no such file, `.invalidOptions` for negative
    /// thread counts, and ORT's own message and code when ORT rejects the file (corrupt, unsupported op).
    public init(runtime: OnnxRuntime, modelPath: String, options: SessionOptions = SessionOptions()) throws {
        self.runtime = runtime
        self.modelPath = modelPath
        self.options = options
        let api = runtime.api
        let shown = OnnxRuntime.describe(path: modelPath)

        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: modelPath, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw InferenceError(.modelMissing, "model file not found: \(shown)")
        }
        guard options.intraOpThreads >= 0, options.interOpThreads >= 0 else {
            throw InferenceError(.invalidOptions,
                "thread counts must be 0 (default) or more; got intra-op \(options.intraOpThreads), inter-op \(options.interOpThreads)")
        }

        var sessionOptions: OpaquePointer?
        try runtime.check(api.pointee.CreateSessionOptions(&sessionOptions), "creating session options")
        defer { api.pointee.ReleaseSessionOptions(sessionOptions) }
        try runtime.check(api.pointee.SetIntraOpNumThreads(sessionOptions, Int32(clamping: options.intraOpThreads)),
                          "setting intra-op threads to \(options.intraOpThreads)")
        try runtime.check(api.pointee.SetInterOpNumThreads(sessionOptions, Int32(clamping: options.interOpThreads)),
                          "setting inter-op threads to \(options.interOpThreads)")
        try runtime.check(api.pointee.SetSessionExecutionMode(sessionOptions, options.parallelExecution ? ORT_PARALLEL : ORT_SEQUENTIAL),
                          "setting the execution mode")
        try runtime.check(api.pointee.SetSessionGraphOptimizationLevel(sessionOptions, options.optimize ? ORT_ENABLE_ALL : ORT_DISABLE_ALL),
                          "setting the graph optimization level")
        if !options.allowSpinning {
            try runtime.check(api.pointee.AddSessionConfigEntry(sessionOptions, "session.intra_op.allow_spinning", "0"),
                              "turning off intra-op spinning")
        }

        var session: OpaquePointer?
        try runtime.check(api.pointee.CreateSession(runtime.env, modelPath, sessionOptions, &session),
                          "loading model \(shown)")
        guard let session else { throw InferenceError(.fail, "ONNX Runtime returned no session for \(shown)") }
        self.session = session
        do {
            self.inputs = try Self.describe(runtime: runtime, session: session, inputs: true)
            self.outputs = try Self.describe(runtime: runtime, session: session, inputs: false)
        } catch {
            api.pointee.ReleaseSession(session)
            throw error
        }
    }

    deinit {
        runtime.api.pointee.ReleaseSession(session)
    }

    private static func describe(runtime: OnnxRuntime, session: OpaquePointer, inputs: Bool) throws -> [TensorInfo] {
        let api = runtime.api
        let what = inputs ? "input" : "output"
        var count = 0
        try runtime.check(inputs ? api.pointee.SessionGetInputCount(session, &count) : api.pointee.SessionGetOutputCount(session, &count),
                          "counting the model's \(what)s")
        var infos: [TensorInfo] = []
        for index in 0..<count {
            var namePointer: UnsafeMutablePointer<CChar>?
            try runtime.check(inputs ? api.pointee.SessionGetInputName(session, index, runtime.allocator, &namePointer)
                                     : api.pointee.SessionGetOutputName(session, index, runtime.allocator, &namePointer),
                              "reading the name of \(what) \(index)")
            let name = namePointer.map { String(cString: $0) } ?? ""
            if let namePointer {
                try runtime.check(api.pointee.AllocatorFree(runtime.allocator, namePointer), "freeing the name of \(what) \(index)")
            }

            var typeInfo: OpaquePointer?
            try runtime.check(inputs ? api.pointee.SessionGetInputTypeInfo(session, index, &typeInfo)
                                     : api.pointee.SessionGetOutputTypeInfo(session, index, &typeInfo),
                              "reading the type of \(what) '\(name)'")
            defer { api.pointee.ReleaseTypeInfo(typeInfo) }
            var tensorInfo: OpaquePointer?
            try runtime.check(api.pointee.CastTypeInfoToTensorInfo(typeInfo, &tensorInfo), "reading the tensor type of \(what) '\(name)'")
            guard let tensorInfo else {
                infos.append(TensorInfo(name: name, elementType: .undefined, shape: []))  // a sequence or map
                continue
            }
            let (elementType, shape, names) = try readTypeAndShape(runtime: runtime, tensorInfo, context: "\(what) '\(name)'")
            infos.append(TensorInfo(name: name, elementType: elementType, shape: shape, dimensionNames: names))
        }
        return infos
    }

    /// Element type, dimensions and symbolic dimension names of an OrtTensorTypeAndShapeInfo (not released here).
    static func readTypeAndShape(runtime: OnnxRuntime, _ info: OpaquePointer, context: String) throws
        -> (TensorElementType, [Int], [String?]) {
        let api = runtime.api
        var type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED
        try runtime.check(api.pointee.GetTensorElementType(info, &type), "reading the element type of \(context)")
        var rank = 0
        try runtime.check(api.pointee.GetDimensionsCount(info, &rank), "reading the rank of \(context)")
        var dims = [Int64](repeating: 0, count: rank)
        var symbols = [UnsafePointer<CChar>?](repeating: nil, count: rank)
        if rank > 0 {
            try runtime.check(api.pointee.GetDimensions(info, &dims, rank), "reading the dimensions of \(context)")
            try runtime.check(api.pointee.GetSymbolicDimensions(info, &symbols, rank), "reading the dimension names of \(context)")
        }
        let names: [String?] = symbols.map { pointer in
            guard let pointer else { return nil }
            let name = String(cString: pointer)
            return name.isEmpty ? nil : name
        }
        return (TensorElementType(onnx: Int(type.rawValue)), dims.map { $0 < 0 ? -1 : Int($0) }, names)
    }

    // MARK: - Hot path: bindings

    /// Allocates, once, a buffer per input and per output, each wrapped as an ONNX Runtime tensor, for
    /// repeated `run(_:)` calls that copy and allocate nothing.
    ///
    /// - Parameters:
    ///   - inputShapes: shapes for inputs with dynamic dimensions (fixed dimensions must match the model);
    ///     inputs whose declared shape is fully fixed may be left out.
    ///   - outputShapes: shapes for outputs whose dynamic dimensions cannot be inferred. A dynamic output
    ///     dimension whose symbolic name (e.g. "batch") also names an input dimension takes that input's size.
    ///   - outputNames: the outputs to compute (default: all, in the model's order).
    /// - Throws: `.unknownName` for names the model does not have, `.shapeMismatch` for shapes that
    ///   contradict the model or dynamic dimensions left open, `.unsupportedType` for non-float32 tensors.
    public func makeBinding(inputShapes: [String: [Int]] = [:], outputShapes: [String: [Int]] = [:],
                            outputNames: [String]? = nil) throws -> SessionBinding {
        for name in inputShapes.keys where !inputs.contains(where: { $0.name == name }) {
            throw unknown("input", name, inputs)
        }
        for name in outputShapes.keys where !outputs.contains(where: { $0.name == name }) {
            throw unknown("output", name, outputs)
        }
        var symbolSizes: [String: Int] = [:]
        var inputBuffers: [TensorBuffer] = []
        for info in inputs {
            try requireFloat(info, "input")
            let shape = try resolve(info, given: inputShapes[info.name], what: "input", symbols: [:])
            for index in info.shape.indices where info.shape[index] < 0 {
                if let name = info.dimensionNames[index] { symbolSizes[name] = shape[index] }
            }
            inputBuffers.append(try TensorBuffer(runtime: runtime, name: info.name, shape: shape))
        }
        let selected: [TensorInfo]
        if let outputNames {
            selected = try outputNames.map { name in
                guard let info = outputs.first(where: { $0.name == name }) else { throw unknown("output", name, outputs) }
                return info
            }
        } else {
            selected = outputs
        }
        var outputBuffers: [TensorBuffer] = []
        for info in selected {
            try requireFloat(info, "output")
            let shape = try resolve(info, given: outputShapes[info.name], what: "output", symbols: symbolSizes)
            outputBuffers.append(try TensorBuffer(runtime: runtime, name: info.name, shape: shape))
        }
        return SessionBinding(session: self, inputs: inputBuffers, outputs: outputBuffers)
    }

    /// Runs the model on the binding's input buffers, writing into its output buffers.
    ///
    /// Allocates nothing on Reelwork's side (ONNX Runtime may use its own arena). On failure throws ORT's
    /// message; the binding stays usable.
    public func run(_ binding: SessionBinding) throws {
        guard binding.session === self else {
            throw InferenceError(.unknownName, "this binding was made by another session (\(binding.session.modelPath))")
        }
        let api = runtime.api
        try runtime.check(
            api.pointee.Run(session, nil, binding.inputNames, binding.inputValues, binding.inputs.count,
                            binding.outputNames, binding.outputs.count, binding.outputValues),
            "running \(OnnxRuntime.describe(path: modelPath))")
        // An output that is itself a graph input is left untouched by ORT: copy the input over.
        for (output, input) in binding.passthrough {
            binding.outputs[output].storage.update(from: binding.inputs[input].storage, count: binding.outputs[output].count)
        }
        // ORT writes into the pre-allocated output tensors. Should it ever hand back a value with its own
        // storage instead, copy that into ours and wrap ours again.
        for (index, buffer) in binding.outputs.enumerated() {
            guard let value = binding.outputValues[index] else { continue }
            var data: UnsafeMutableRawPointer?
            try runtime.check(api.pointee.GetTensorMutableData(value, &data), "reading output '\(buffer.name)'")
            if data != UnsafeMutableRawPointer(buffer.storage) {
                try binding.adoptForeignOutput(index: index, value: value, data: data)
            }
        }
    }

    // MARK: - Convenience path

    /// Runs with float32 inputs given as Swift arrays (not copied: ORT reads them in place) and returns the
    /// requested outputs (default: all) as new arrays. Convenient and shape-flexible; allocates the outputs
    /// on every call, so use a binding on hot paths.
    ///
    /// - Throws: `.unknownName` for an input or output the model does not have or a missing input,
    ///   `.shapeMismatch` when a tensor's value count does not match its shape or its shape contradicts the
    ///   model, `.unsupportedType` for non-float32 tensors, and ORT's own errors.
    public func run(_ feeds: [String: Tensor], outputs outputNames: [String]? = nil) throws -> [String: Tensor] {
        for name in feeds.keys where !inputs.contains(where: { $0.name == name }) {
            throw unknown("input", name, inputs)
        }
        var ordered: [(info: TensorInfo, tensor: Tensor)] = []
        for info in inputs {
            guard let tensor = feeds[info.name] else {
                throw InferenceError(.unknownName, "missing input '\(info.name)' for \(OnnxRuntime.describe(path: modelPath))")
            }
            try requireFloat(info, "input")
            _ = try resolve(info, given: tensor.shape, what: "input", symbols: [:])
            guard tensor.data.count == tensor.elementCount else {
                throw InferenceError(.shapeMismatch,
                    "input '\(info.name)': \(tensor.data.count) values for shape \(formatShape(tensor.shape)) (\(tensor.elementCount) expected)")
            }
            ordered.append((info, tensor))
        }
        let wanted: [TensorInfo] = try (outputNames ?? outputs.map(\.name)).map { name in
            guard let info = outputs.first(where: { $0.name == name }) else { throw unknown("output", name, outputs) }
            return info
        }
        for info in wanted { try requireFloat(info, "output") }

        let api = runtime.api
        var outputValues = [OpaquePointer?](repeating: nil, count: wanted.count)
        defer { for value in outputValues { api.pointee.ReleaseValue(value) } }
        let inputNames = ordered.map { strdup($0.info.name) }
        let outputCNames = wanted.map { strdup($0.name) }
        defer { inputNames.forEach { free($0) }; outputCNames.forEach { free($0) } }
        let inputNamePointers = inputNames.map { UnsafePointer<CChar>($0) }
        let outputNamePointers = outputCNames.map { UnsafePointer<CChar>($0) }

        try Self.withBuffers(of: ordered.map(\.tensor)) { buffers in
            var inputValues: [OpaquePointer?] = []
            defer { for value in inputValues { api.pointee.ReleaseValue(value) } }
            for (index, buffer) in buffers.enumerated() {
                // ORT only reads input tensors; the const is cast away because the C API takes void *.
                let storage = UnsafeMutablePointer(mutating: buffer.baseAddress ?? UnsafePointer(bitPattern: 64)!)
                inputValues.append(try TensorBuffer.makeValue(runtime: runtime, storage: storage,
                                                              byteCount: buffer.count * MemoryLayout<Float>.stride,
                                                              shape: ordered[index].tensor.shape, name: ordered[index].info.name))
            }
            try runtime.check(
                api.pointee.Run(session, nil, inputNamePointers, inputValues, inputValues.count,
                                outputNamePointers, wanted.count, &outputValues),
                "running \(OnnxRuntime.describe(path: modelPath))")
        }
        var results: [String: Tensor] = [:]
        for (index, info) in wanted.enumerated() {
            guard let value = outputValues[index] else {
                throw InferenceError(.fail, "ONNX Runtime returned no value for output '\(info.name)'")
            }
            results[info.name] = try readFloatTensor(value, name: info.name)
        }
        return results
    }

    /// Calls `body` with a pointer to each tensor's data, valid for the duration of the call.
    private static func withBuffers<R>(of tensors: [Tensor], from index: Int = 0, collected: [UnsafeBufferPointer<Float>] = [],
                                       _ body: ([UnsafeBufferPointer<Float>]) throws -> R) rethrows -> R {
        if index == tensors.count { return try body(collected) }
        return try tensors[index].data.withUnsafeBufferPointer { buffer in
            try withBuffers(of: tensors, from: index + 1, collected: collected + [buffer], body)
        }
    }

    /// Copies a float32 OrtValue made by ORT into a `Tensor`.
    func readFloatTensor(_ value: OpaquePointer, name: String) throws -> Tensor {
        let (type, shape, count, data) = try inspect(value, name: name)
        guard type == .float32 else {
            throw InferenceError(.unsupportedType, "output '\(name)' is \(type); only float32 is supported")
        }
        let floats = data.map { UnsafeBufferPointer(start: $0.assumingMemoryBound(to: Float.self), count: count) }
        return Tensor(shape: shape, data: floats.map(Array.init) ?? [])
    }

    /// Element type, shape, element count and data of an OrtValue.
    func inspect(_ value: OpaquePointer, name: String) throws -> (TensorElementType, [Int], Int, UnsafeMutableRawPointer?) {
        let api = runtime.api
        var info: OpaquePointer?
        try runtime.check(api.pointee.GetTensorTypeAndShape(value, &info), "reading the shape of '\(name)'")
        defer { api.pointee.ReleaseTensorTypeAndShapeInfo(info) }
        let (type, shape, _) = try Self.readTypeAndShape(runtime: runtime, info!, context: "'\(name)'")
        var count = 0
        try runtime.check(api.pointee.GetTensorShapeElementCount(info, &count), "counting the elements of '\(name)'")
        var data: UnsafeMutableRawPointer?
        try runtime.check(api.pointee.GetTensorMutableData(value, &data), "reading the data of '\(name)'")
        return (type, shape, count, data)
    }

    // MARK: - Checks

    private func unknown(_ what: String, _ name: String, _ known: [TensorInfo]) -> InferenceError {
        InferenceError(.unknownName,
            "\(OnnxRuntime.describe(path: modelPath)) has no \(what) named '\(name)' (\(what)s: \(known.map(\.name).joined(separator: ", ")))")
    }

    private func requireFloat(_ info: TensorInfo, _ what: String) throws {
        guard info.elementType == .float32 else {
            throw InferenceError(.unsupportedType,
                "\(what) '\(info.name)' of \(OnnxRuntime.describe(path: modelPath)) is \(info.elementType); only float32 is supported")
        }
    }

    /// The concrete shape for `info`: `given` checked against the declared shape, else the declared shape
    /// with dynamic dimensions filled from `symbols`.
    private func resolve(_ info: TensorInfo, given: [Int]?, what: String, symbols: [String: Int]) throws -> [Int] {
        let declared = formatShape(info.shape, names: info.dimensionNames)
        if let given {
            let fits = given.count == info.shape.count
                && zip(given, info.shape).allSatisfy { concrete, declared in concrete >= 0 && (declared < 0 || declared == concrete) }
            guard fits else {
                throw InferenceError(.shapeMismatch,
                    "\(what) '\(info.name)' of \(OnnxRuntime.describe(path: modelPath)) has shape \(declared); got \(formatShape(given))")
            }
            return given
        }
        var shape = info.shape
        for index in shape.indices where shape[index] < 0 {
            guard let name = info.dimensionNames[index], let size = symbols[name] else {
                throw InferenceError(.shapeMismatch,
                    "\(what) '\(info.name)' of \(OnnxRuntime.describe(path: modelPath)) has dynamic shape \(declared); pass its shape when making the binding")
            }
            shape[index] = size
        }
        return shape
    }
}

/// Input and output buffers bound to one session, reused across runs. One caller at a time.
public final class SessionBinding: @unchecked Sendable {
    // Safe: C buffers confined to one caller at a time (the slot that checked the models out).
    public let session: InferenceSession
    /// One buffer per model input, in the model's order.
    public let inputs: [TensorBuffer]
    /// One buffer per requested output, in the requested order.
    public let outputs: [TensorBuffer]

    /// (output index, input index) for outputs that are graph inputs, which ORT does not write.
    let passthrough: [(Int, Int)]
    private let inputIndex: [String: Int]
    private let outputIndex: [String: Int]
    // C arrays handed to Run, made once.
    let inputNames: UnsafeMutablePointer<UnsafePointer<CChar>?>
    let inputValues: UnsafeMutablePointer<OpaquePointer?>
    let outputNames: UnsafeMutablePointer<UnsafePointer<CChar>?>
    let outputValues: UnsafeMutablePointer<OpaquePointer?>

    init(session: InferenceSession, inputs: [TensorBuffer], outputs: [TensorBuffer]) {
        self.session = session
        self.inputs = inputs
        self.outputs = outputs
        inputIndex = Dictionary(uniqueKeysWithValues: inputs.enumerated().map { ($1.name, $0) })
        outputIndex = Dictionary(outputs.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        passthrough = outputs.enumerated().compactMap { index, output in
            guard let input = inputs.firstIndex(where: { $0.name == output.name }), inputs[input].count == output.count else { return nil }
            return (index, input)
        }
        inputNames = .allocate(capacity: max(inputs.count, 1))
        inputValues = .allocate(capacity: max(inputs.count, 1))
        outputNames = .allocate(capacity: max(outputs.count, 1))
        outputValues = .allocate(capacity: max(outputs.count, 1))
        for (index, buffer) in inputs.enumerated() {
            inputNames[index] = UnsafePointer(strdup(buffer.name))
            inputValues[index] = buffer.value
        }
        for (index, buffer) in outputs.enumerated() {
            outputNames[index] = UnsafePointer(strdup(buffer.name))
            outputValues[index] = buffer.value
        }
    }

    deinit {
        for index in inputs.indices { free(UnsafeMutablePointer(mutating: inputNames[index])) }
        for index in outputs.indices { free(UnsafeMutablePointer(mutating: outputNames[index])) }
        inputNames.deallocate()
        inputValues.deallocate()
        outputNames.deallocate()
        outputValues.deallocate()
    }

    /// The buffer of input `name`; throws `.unknownName` when the model has no such input.
    public func input(_ name: String) throws -> TensorBuffer {
        guard let index = inputIndex[name] else {
            throw InferenceError(.unknownName, "no input named '\(name)' (inputs: \(inputs.map(\.name).joined(separator: ", ")))")
        }
        return inputs[index]
    }

    /// The buffer of output `name`; throws `.unknownName` when it is not bound.
    public func output(_ name: String) throws -> TensorBuffer {
        guard let index = outputIndex[name] else {
            throw InferenceError(.unknownName, "no output named '\(name)' (outputs: \(outputs.map(\.name).joined(separator: ", ")))")
        }
        return outputs[index]
    }

    /// ORT replaced output `index`'s value with one holding its own storage: copy the data into the buffer
    /// and wrap the buffer again for the next run.
    func adoptForeignOutput(index: Int, value: OpaquePointer, data: UnsafeMutableRawPointer?) throws {
        let buffer = outputs[index]
        let (type, shape, count, _) = try session.inspect(value, name: buffer.name)
        guard type == .float32, shape == buffer.shape, count == buffer.count, let data else {
            throw InferenceError(.shapeMismatch,
                "output '\(buffer.name)' came back as \(type) \(formatShape(shape)); the binding expects float32 \(formatShape(buffer.shape))")
        }
        buffer.storage.update(from: data.assumingMemoryBound(to: Float.self), count: count)
        let api = session.runtime.api
        let fresh = try TensorBuffer.makeValue(runtime: session.runtime, storage: buffer.storage, byteCount: buffer.byteCount,
                                               shape: buffer.shape, name: buffer.name)
        // The OrtValue object is the one we created (ORT assigned into it); release it and use the fresh one.
        api.pointee.ReleaseValue(value)
        buffer.value = fresh
        outputValues[index] = fresh
    }
}
