import Foundation
import Webhooks
import XCTest

/// The signature is the specification's, byte for byte: its published test vector, both secrets
/// during a rotation, and secrets that are refused without being repeated.
final class WebhookSignatureTests: XCTestCase {
    private let vectorSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    private let vectorBody = Data(#"{"test": 2432232314}"#.utf8)

    /// The Standard Webhooks test vector (the specification's reference libraries test against it).
    func testTheSpecificationsTestVector() throws {
        let signature = WebhookSignature.sign(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1614265330, body: vectorBody,
                                              secret: try WebhookSecret(parsing: vectorSecret))
        XCTAssertEqual(signature, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    func testTwoSecretsGiveTwoSignaturesSeparatedByASpaceTheCurrentOneFirst() throws {
        let old = try WebhookSecret(parsing: vectorSecret), new = WebhookSecret.generate()
        let header = WebhookSignature.header(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1614265330, body: vectorBody, secrets: [new, old])
        let parts = header.split(separator: " ").map(String.init)
        XCTAssertEqual(parts.count, 2)
        XCTAssertEqual(parts[1], "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        XCTAssertEqual(parts[0], WebhookSignature.sign(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1614265330, body: vectorBody, secret: new))
        XCTAssertNotEqual(parts[0], parts[1])
    }

    func testEverySignedPartChangesTheSignature() throws {
        let secret = try WebhookSecret(parsing: vectorSecret)
        let base = WebhookSignature.sign(id: "msg_a", timestamp: 1, body: Data("x".utf8), secret: secret)
        XCTAssertNotEqual(base, WebhookSignature.sign(id: "msg_b", timestamp: 1, body: Data("x".utf8), secret: secret))
        XCTAssertNotEqual(base, WebhookSignature.sign(id: "msg_a", timestamp: 2, body: Data("x".utf8), secret: secret))
        XCTAssertNotEqual(base, WebhookSignature.sign(id: "msg_a", timestamp: 1, body: Data("y".utf8), secret: secret))
        XCTAssertNotEqual(base, WebhookSignature.sign(id: "msg_a", timestamp: 1, body: Data("x".utf8), secret: .generate()))
    }

    func testAGeneratedSecretIsWhsecAndThirtyTwoRandomBytesAndReadsBack() throws {
        let secret = WebhookSecret.generate()
        XCTAssertTrue(secret.text.hasPrefix("whsec_"))
        XCTAssertEqual(secret.key.count, 32)
        XCTAssertEqual(try WebhookSecret(parsing: secret.text), secret)
        XCTAssertNotEqual(WebhookSecret.generate(), secret)
        XCTAssertFalse("\(secret)".contains(secret.text.dropFirst(6)), "a secret's description never shows it")
    }

    func testTextsThatAreNotSecretsAreRefusedWithoutRepeatingThem() {
        let tooShort = "whsec_" + Data(repeating: 7, count: 16).base64EncodedString()
        let tooLong = "whsec_" + Data(repeating: 7, count: 65).base64EncodedString()
        for (text, reason) in [("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "does not start with whsec_"), ("whsec_%%%%secret%%%%", "not base64"),
                               (tooShort, "16 bytes"), (tooLong, "65 bytes")] {
            XCTAssertThrowsError(try WebhookSecret(parsing: text), text) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(error)")
                XCTAssertFalse("\(error)".contains(text.dropFirst(6).prefix(10)), "\(error)")
            }
        }
    }
}
