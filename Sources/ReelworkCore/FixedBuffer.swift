/// A fixed number of plain values in one heap block that this buffer owns: allocated and
/// initialised once, freed when the buffer ends. The per-frame scratch space of the pixel loops
/// (run tables, colour tables, model inputs) lives in these, so no code outside the C wrappers
/// allocates or frees memory by hand.
///
/// Noncopyable, so the block has exactly one owner and no reference count. Writes go through the
/// memory, not the value (`nonmutating set`), like a class's storage: a `let` buffer inside a class
/// is written without the exclusivity checks a `var` would cost on every access in a hot loop.
/// Indices are checked in debug builds only (`assert`), since the pixel loops index it millions of
/// times a frame. Not thread-safe: one writer at a time, as with any shared memory.
///
/// The block starts 64-byte aligned (SIMD loads, ONNX Runtime's tensors) and never moves while the
/// buffer lives.
public struct FixedBuffer<Element: BitwiseCopyable>: ~Copyable {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    /// Number of elements, fixed at creation.
    public let count: Int

    /// `count` elements (negative counts as 0), each `value`.
    @inlinable
    public init(count: Int, repeating value: Element) {
        self.count = max(count, 0)
        base = Self.allocate(self.count)
        base.initialize(repeating: value, count: self.count)
    }

    /// A copy of `values`.
    @inlinable
    public init<C: Collection>(_ values: C) where C.Element == Element {
        count = values.count
        base = Self.allocate(count)
        _ = UnsafeMutableBufferPointer(start: base, count: count).initialize(from: values)
    }

    // At least one element, so a zero-count buffer still has a valid address to hand to C.
    @inlinable
    static func allocate(_ count: Int) -> UnsafeMutablePointer<Element> {
        UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * MemoryLayout<Element>.stride,
                                         alignment: max(64, MemoryLayout<Element>.alignment))
            .bindMemory(to: Element.self, capacity: max(count, 1))
    }

    // Trivial elements need no deinitialising.
    @inlinable
    deinit { base.deallocate() }

    /// Element `index`, in `0 ..< count` (checked in debug builds).
    @inlinable
    public subscript(index: Int) -> Element {
        @inline(__always) get {
            assert(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
            return base[index]
        }
        @inline(__always) nonmutating set {
            assert(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
            base[index] = newValue
        }
    }

    /// Sets elements `range` (within `0 ..< count`, checked in debug builds) to `value`.
    @inlinable
    public func fill(_ range: Range<Int>, with value: Element) {
        assert(range.lowerBound >= 0 && range.upperBound <= count, "range \(range) out of 0..<\(count)")
        (base + range.lowerBound).update(repeating: value, count: range.count)
    }

    /// Sets every element to `value`.
    @inlinable
    public func fill(with value: Element) { base.update(repeating: value, count: count) }

    /// The elements as a buffer pointer, for loops that want no index checks at all or for C calls.
    /// The pointer must not escape `body`.
    @inlinable
    public func withUnsafeMutableBufferPointer<R, E: Error>(_ body: (UnsafeMutableBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeMutableBufferPointer(start: base, count: count))
    }

    /// Read-only access to the elements as a buffer pointer. The pointer must not escape `body`.
    @inlinable
    public func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// A copy of the elements.
    @inlinable
    public var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
