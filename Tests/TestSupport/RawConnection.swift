import Foundation

/// A plain TCP connection to 127.0.0.1, for tests that must send less than a whole request (a
/// stalled upload) or see exactly when a server closes the connection. Closed in deinit.
public final class RawConnection: @unchecked Sendable {
    // Safe: the only state is the descriptor, set once; send(2) and recv(2) may be called on it
    // from two threads at once (a test trickles bytes on one and reads the answer on another).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let fd: Int32

    public init(port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port) failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    public func send(_ text: String) throws { try send(Data(text.utf8)) }

    public func send(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                guard n > 0 else { throw Failure(description: "send failed: errno \(errno)") }
                sent += n
            }
        }
    }

    /// Reads until the server closes the connection or `timeout` passes; returns what arrived and
    /// whether the server closed it.
    public func readUntilClosed(timeout: TimeInterval) -> (data: Data, closed: Bool) {
        var received = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let millis = Int32(max(1, min(200, deadline.timeIntervalSinceNow * 1000)))
            guard poll(&poller, 1, millis) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return (received, true) }
            received.append(contentsOf: buffer[0..<n])
        }
        return (received, false)
    }
}

/// A TCP port on 127.0.0.1 that accepts connections (the kernel completes them) but never reads or
/// answers: a server that hangs. Closed in deinit.
public final class SilentListener {
    public let port: Int
    private let fd: Int32

    public init() throws {
        (fd, port) = try LocalSocket.bound(listening: true)
    }

    deinit { close(fd) }
}
