import Foundation

/// A certificate authority of a test's own (openssl): it issues server certificates for names, and
/// `trustStore` is a folder holding only its root, to be mounted over /etc/ssl/certs for a process
/// under test (`TestStack.spawn(mounts:)`), which then trusts this CA and nothing else.
public final class TestCertificateAuthority {
    private let directory: ScratchDirectory
    private let rootKey: String, rootCertificate: String

    /// The folder to mount over /etc/ssl/certs: the root as ca-certificates.crt and under its hash.
    public var trustStore: URL { directory.url.appendingPathComponent("certs") }

    public init() throws {
        directory = try ScratchDirectory(prefix: "test-ca")
        rootKey = directory.path("root.key")
        rootCertificate = directory.path("root.pem")
        try Tool.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                 "-keyout", rootKey, "-out", rootCertificate, "-days", "2", "-subj", "/CN=Reelwork test root",
                                 "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"])
        try FileManager.default.createDirectory(at: trustStore, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: rootCertificate, toPath: trustStore.appendingPathComponent("ca-certificates.crt").path)
        try Tool.run("openssl", ["rehash", trustStore.path])
    }

    /// A key and a certificate for `name` (its only subject alternative name), signed by the root.
    public func issue(for name: String) throws -> (certificate: String, key: String) {
        let key = directory.path("\(name).key"), request = directory.path("\(name).csr"), certificate = directory.path("\(name).pem")
        let extensions = directory.path("\(name).ext")
        try "subjectAltName=DNS:\(name)\nextendedKeyUsage=serverAuth\n".write(toFile: extensions, atomically: true, encoding: .utf8)
        try Tool.run("openssl", ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                                 "-out", request, "-subj", "/CN=\(name)"])
        try Tool.run("openssl", ["x509", "-req", "-in", request, "-CA", rootCertificate, "-CAkey", rootKey, "-CAcreateserial",
                                 "-out", certificate, "-days", "2", "-extfile", extensions])
        return (certificate, key)
    }

    public func remove() {
        directory.remove()
    }
}
