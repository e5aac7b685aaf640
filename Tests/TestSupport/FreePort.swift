import Foundation

public enum FreePort {
    public struct Unavailable: Error {}

    /// A TCP port on 127.0.0.1 that nothing listens on: bound for a moment to learn a free number,
    /// then closed.
    public static func next() throws -> Int {
        let (fd, port) = try LocalSocket.bound(listening: false)
        close(fd)
        return port
    }
}

/// A TCP socket bound to 127.0.0.1 on a port the kernel picks.
enum LocalSocket {
    /// The socket (the caller closes it) and its port; with `listening`, connections to it complete.
    static func bound(listening: Bool) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FreePort.Unavailable() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0, !listening || listen(fd, 16) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else {
            close(fd)
            throw FreePort.Unavailable()
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
