import Foundation
import Webhooks
import XCTest

/// Only http(s) URLs without credentials whose host resolves to public addresses are accepted; every
/// internal range is refused with a message naming it, IPv4 inside IPv6 included, unless private
/// addresses are allowed.
final class WebhookURLPolicyTests: XCTestCase {
    /// A policy whose resolver answers `addresses` for every host.
    private func policy(resolvingTo addresses: [IPAddress], allowPrivate: Bool = false) -> WebhookURLPolicy {
        WebhookURLPolicy(allowPrivate: allowPrivate, resolve: { _ in addresses })
    }

    private func v6(_ text: String) -> IPAddress {
        var bytes = [UInt8](repeating: 0, count: 16)
        _ = text.withCString { inet_pton(AF_INET6, $0, &bytes) }
        return .v6(bytes)
    }

    func testTheFormIsCheckedWithAMessageNamingTheProblem() {
        let open = policy(resolvingTo: [.v4(93, 184, 216, 34)])
        let refused: [(String, String)] = [
            ("ftp://example.org/hook", "scheme is 'ftp'; only http and https"),
            ("file:///etc/passwd", "scheme is 'file'"),
            ("javascript:alert(1)", "scheme is 'javascript'"),
            ("https://user:hunter2@example.org/hook", "contains a user name or password"),
            ("https://token@example.org/hook", "contains a user name or password"),
            ("https:///hook", "has no host"),
            ("https://example.org:0/hook", "port '0'"),
            ("https://example.org:70000/hook", "port '70000'"),
            ("https://example.org:99999999999999999999/hook", "port"),
            ("https://exa mple.org/hook", "a space or a control character"),
            ("https://example.org/hook\n", "a space or a control character"),
            ("example.org/hook", "no scheme"),
            ("", "it is empty"),
            ("https://example.org/" + String(repeating: "a", count: 2100), "at most 2048"),
        ]
        for (url, message) in refused {
            XCTAssertThrowsError(try open.check(url), url) { error in
                XCTAssertTrue("\(error)".contains(message), "\(url): \(error)")
                XCTAssertFalse("\(error)".contains("hunter2"), "credentials are never repeated: \(error)")
            }
        }
        for url in ["https://example.org/hook", "http://example.org:8080/a?b=c", "HTTPS://Example.ORG", "https://[2606:2800::1]:443/x"] {
            XCTAssertNoThrow(try open.check(url), url)
        }
    }

    func testEveryInternalRangeIsRefusedAndPublicAddressesPass() {
        let internalAddresses: [(IPAddress, String)] = [
            (.v4(127, 0, 0, 1), "loopback"), (.v4(127, 255, 1, 2), "loopback"), (.v4(10, 1, 2, 3), "private (10.0.0.0/8)"),
            (.v4(172, 16, 0, 1), "private (172.16.0.0/12)"), (.v4(172, 31, 255, 255), "private (172.16.0.0/12)"),
            (.v4(192, 168, 1, 1), "private (192.168.0.0/16)"), (.v4(169, 254, 169, 254), "link-local"),
            (.v4(0, 0, 0, 0), "unspecified"), (.v4(0, 1, 2, 3), "this network"), (.v4(100, 64, 0, 1), "carrier-grade NAT"),
            (.v4(100, 127, 255, 255), "carrier-grade NAT"), (.v4(224, 0, 0, 1), "multicast"), (.v4(239, 255, 255, 250), "multicast"),
            (.v4(255, 255, 255, 255), "broadcast"), (.v4(240, 0, 0, 1), "reserved"),
            (v6("::1"), "loopback (::1)"), (v6("::"), "unspecified (::)"), (v6("fc00::1"), "unique local"), (v6("fd12:3456::1"), "unique local"),
            (v6("fe80::1"), "link-local (fe80::/10)"), (v6("ff02::1"), "multicast (ff00::/8)"),
            (v6("::ffff:127.0.0.1"), "loopback (127.0.0.0/8), inside the IPv6 address"),
            (v6("::ffff:10.0.0.1"), "private (10.0.0.0/8), inside"), (v6("::ffff:169.254.169.254"), "link-local"),
            (v6("::127.0.0.1"), "loopback"), (v6("64:ff9b::a9fe:a9fe"), "link-local"),
            // NAT64 local use (RFC 8215), 6to4 (RFC 3056) and SIIT (RFC 2765) carry an IPv4 address too.
            (v6("64:ff9b:1::7f00:1"), "loopback (127.0.0.0/8), inside"), (v6("64:ff9b:1:abcd::a00:5"), "private (10.0.0.0/8), inside"),
            (v6("2002:7f00:1::"), "loopback (127.0.0.0/8), inside"), (v6("2002:a9fe:a9fe::1"), "link-local (169.254.0.0/16), inside"),
            (v6("::ffff:0:7f00:1"), "loopback (127.0.0.0/8), inside"), (v6("::ffff:0:c0a8:101"), "private (192.168.0.0/16), inside"),
            // The rest of IANA's special-purpose blocks that are not globally reachable (issue 32).
            (.v4(192, 0, 2, 7), "TEST-NET-1"), (.v4(198, 51, 100, 1), "TEST-NET-2"), (.v4(203, 0, 113, 200), "TEST-NET-3"),
            (.v4(192, 88, 99, 1), "6to4 relay"), (.v4(192, 0, 0, 8), "IETF protocol assignments"), (.v4(198, 19, 255, 1), "benchmarking"),
            (v6("100::1"), "discard-only"), (v6("100:0:0:1::5"), "dummy prefix"), (v6("2001:db8::1"), "documentation (2001:db8::/32)"),
            (v6("3fff:fff::1"), "documentation (3fff::/20)"), (v6("5f00:1::1"), "segment routing"), (v6("2001::5efe:7f00:1"), "Teredo"),
            (v6("2001:2::1"), "benchmarking (2001:2::/48)"), (v6("2001:10::1"), "IETF protocol assignments"),
            (v6("2001:1::3"), "IETF protocol assignments"),
        ]
        for (address, range) in internalAddresses {
            XCTAssertThrowsError(try policy(resolvingTo: [address]).check("https://hooks.example.org/x"), "\(address)") { error in
                XCTAssertTrue("\(error)".contains(range), "\(address): \(error)")
                XCTAssertTrue("\(error)".contains("REELWORK_WEBHOOK_ALLOW_PRIVATE"), "\(error)")
            }
            XCTAssertNoThrow(try policy(resolvingTo: [address], allowPrivate: true).check("https://hooks.example.org/x"), "\(address)")
        }
        for address in [IPAddress.v4(93, 184, 216, 34), .v4(100, 63, 255, 255), .v4(100, 128, 0, 0), .v4(172, 32, 0, 1), .v4(8, 8, 8, 8),
                        v6("2606:2800:220:1::1"), v6("::ffff:93.184.216.34"), v6("64:ff9b:1::5db8:d822"), v6("2002:5db8:d822::1"),
                        v6("::ffff:0:5db8:d822"),
                        // Globally reachable special-purpose addresses, and neighbours of the blocks above.
                        .v4(192, 0, 0, 9), .v4(192, 0, 0, 10), .v4(192, 0, 3, 1), .v4(198, 51, 101, 1), .v4(203, 0, 114, 1),
                        .v4(198, 20, 0, 1), v6("2001:1::1"), v6("2001:3::1"), v6("2001:4:112::1"), v6("2001:20::1"), v6("2001:30::1"),
                        v6("2001:200::1"), v6("2001:db9::1"), v6("3fff:1000::1"), v6("101::1")] {
            XCTAssertNoThrow(try policy(resolvingTo: [address]).check("https://hooks.example.org/x"), "\(address)")
        }
    }

    func testOneInternalAddressAmongPublicOnesIsEnoughToRefuse() {
        XCTAssertThrowsError(try policy(resolvingTo: [.v4(93, 184, 216, 34), .v4(10, 0, 0, 5)]).check("https://mixed.example.org/")) { error in
            XCTAssertTrue("\(error)".contains("resolves to 10.0.0.5"), "\(error)")
        }
    }

    /// The system resolver: every spelling of loopback is caught, and a name that does not resolve says so.
    func testTheSystemResolverCatchesEverySpellingOfLoopback() {
        let real = WebhookURLPolicy(allowPrivate: false)
        for url in ["http://localhost:8080/x", "http://127.0.0.1/x", "http://127.1/x", "http://2130706433/x", "http://0x7f.0.0.1/x",
                    "http://[::1]:9000/x", "http://[::ffff:127.0.0.1]/x", "http://0.0.0.0/x"] {
            XCTAssertThrowsError(try real.check(url), url) { error in
                guard case .internalAddress = error as? WebhookURLError else { return XCTFail("\(url): \(error)") }
            }
        }
        XCTAssertThrowsError(try real.check("https://no-such-host.invalid/x")) { error in
            guard case .unresolvable(let host, _) = error as? WebhookURLError else { return XCTFail("\(error)") }
            XCTAssertEqual(host, "no-such-host.invalid")
            XCTAssertTrue("\(error)".contains("cannot be resolved"), "\(error)")
        }
        XCTAssertNoThrow(try WebhookURLPolicy(allowPrivate: true).check("http://localhost:8080/x"))
    }

    /// An operator's blocks let exactly those internal addresses through; every other one stays refused.
    func testAllowedBlocksLetThoseAddressesThroughAndNoOthers() throws {
        let ranges = try IPRange.list("127.0.0.2/32, 10.20.0.0/16 ,fd00:1::/32")
        XCTAssertEqual(ranges.map(\.description), ["127.0.0.2/32", "10.20.0.0/16", "fd00:1:0:0:0:0:0:0/32"])
        func check(_ address: IPAddress) throws -> WebhookTarget {
            try WebhookURLPolicy(allowPrivate: false, allowedRanges: ranges, resolve: { _ in [address] }).target("https://hooks.example.org/x")
        }
        for allowed in [IPAddress.v4(127, 0, 0, 2), .v4(10, 20, 255, 1), v6("fd00:1:ffff::9")] {
            XCTAssertEqual(try check(allowed).address, allowed)
        }
        for refused in [IPAddress.v4(127, 0, 0, 1), .v4(127, 0, 0, 3), .v4(10, 21, 0, 1), v6("fd00:2::1"), v6("::ffff:127.0.0.1")] {
            XCTAssertThrowsError(try check(refused), "\(refused)") { error in
                XCTAssertTrue("\(error)".contains("REELWORK_WEBHOOK_ALLOW_ADDRESSES"), "\(error)")
            }
        }
        for bad in ["127.0.0.1/33", "fd00::/129", "10.0.0.0/x", "example.org/32", "10.0.0.0/-1", "/8"] {
            XCTAssertThrowsError(try IPRange(parsing: bad), bad) { error in
                XCTAssertTrue("\(error)".contains("is not an address range"), "\(bad): \(error)")
            }
        }
        XCTAssertEqual(try IPRange(parsing: "192.0.2.7").prefixLength, 32, "a bare address is a block of one")
    }

    /// A send resolves once and names the address it will connect to: the first of the answer.
    func testTheTargetIsTheFirstCheckedAddressAndLogsDropTheQuery() throws {
        let target = try policy(resolvingTo: [.v4(93, 184, 216, 34), .v4(93, 184, 216, 35)]).target("https://Hooks.Example.org:8443/x?token=s3cret")
        XCTAssertEqual(target.address, .v4(93, 184, 216, 34))
        XCTAssertEqual(target.host, "Hooks.Example.org")
        XCTAssertFalse(target.hostIsAddress)
        XCTAssertTrue(try policy(resolvingTo: [.v4(93, 184, 216, 34)]).target("http://93.184.216.34/x").hostIsAddress)
        XCTAssertEqual(WebhookURLPolicy.forLogs("https://h.example.org/x?token=s3cret#frag"), "https://h.example.org/x")
        XCTAssertEqual(WebhookURLPolicy.forLogs("https://h.example.org/x#a?b"), "https://h.example.org/x")
    }
}
