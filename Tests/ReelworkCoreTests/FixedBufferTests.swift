import ReelworkCore
import XCTest

final class FixedBufferTests: XCTestCase {
    func testStartsWithEveryElementSet() {
        let buffer = FixedBuffer<Int32>(count: 1000, repeating: -7)
        XCTAssertEqual(buffer.count, 1000)
        XCTAssertEqual(buffer.array, Array(repeating: -7, count: 1000))
    }

    func testCopiesACollection() {
        let buffer = FixedBuffer([1.5, -2, 3] as [Double])
        XCTAssertEqual(buffer.count, 3)
        XCTAssertEqual(buffer.array, [1.5, -2, 3])
    }

    /// Writes go to the owned memory, so a `let` buffer (as the detectors hold them) takes them.
    func testWritesThroughALetAreKept() {
        let buffer = FixedBuffer<UInt8>(count: 4, repeating: 0)
        buffer[1] = 9
        buffer[3] = 255
        XCTAssertEqual(buffer[1], 9)
        XCTAssertEqual(buffer.array, [0, 9, 0, 255])
    }

    func testFillTouchesOnlyTheRange() {
        let buffer = FixedBuffer<UInt8>(count: 8, repeating: 0)
        buffer.fill(2..<5, with: 1)
        XCTAssertEqual(buffer.array, [0, 0, 1, 1, 1, 0, 0, 0])
        buffer.fill(with: 4)
        XCTAssertEqual(buffer.array, Array(repeating: 4, count: 8))
    }

    func testScopedAccessSeesTheSameElements() {
        let buffer = FixedBuffer<Float>(count: 5, repeating: 0)
        buffer.withUnsafeMutableBufferPointer { for i in $0.indices { $0[i] = Float(i) * 2 } }
        XCTAssertEqual(buffer[4], 8)
        XCTAssertEqual(buffer.withUnsafeBufferPointer { $0.reduce(0, +) }, 20)
    }

    /// ONNX Runtime keeps the address of a tensor's buffer, and SIMD loads want 64-byte rows.
    func testMemoryIsAlignedAndNeverMoves() {
        let buffer = FixedBuffer<UInt8>(count: 3, repeating: 0)
        let first = buffer.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        buffer.fill(with: 1)
        let second = buffer.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        XCTAssertEqual(first, second)
        XCTAssertEqual(first % 64, 0)
    }

    func testEmptyBufferStillHasAnAddress() {
        let empty = FixedBuffer<Double>(count: -3, repeating: 1)
        XCTAssertEqual(empty.count, 0)
        XCTAssertEqual(empty.array, [])
        XCTAssertNotNil(empty.withUnsafeBufferPointer { $0.baseAddress })
    }
}
