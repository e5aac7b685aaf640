import Foundation
import S3Storage
import XCTest

/// Signature V4 against the examples AWS publishes: the SigV4 test suite (credentials
/// AKIDEXAMPLE, service `service`) and the S3 API reference's signed GET and presigned URL
/// (AKIAIOSFODNN7EXAMPLE). A signature that differs in one byte from theirs is a store refusing us.
final class SignatureV4Tests: XCTestCase {
    let suite = SignatureV4(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                            region: "us-east-1", service: "service")
    let s3 = SignatureV4(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1")
    /// 20150830T123600Z, the test suite's time.
    let suiteDate = Date(timeIntervalSince1970: 1_440_938_160)
    /// 20130524T000000Z, the S3 examples' time.
    let s3Date = Date(timeIntervalSince1970: 1_369_353_600)
    let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    func testTestSuiteGetVanilla() {
        let headers = suite.signedHeaders(method: "GET", url: URL(string: "https://example.amazonaws.com/")!,
                                          headers: ["Host": "example.amazonaws.com"], payloadHash: emptyHash, date: suiteDate,
                                          sendsPayloadHash: false)
        XCTAssertEqual(headers["x-amz-date"], "20150830T123600Z")
        XCTAssertEqual(headers["authorization"],
                       "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, "
                           + "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")
    }

    func testTestSuiteGetWithAQueryParameter() {
        let headers = suite.signedHeaders(method: "GET", url: URL(string: "https://example.amazonaws.com/?Param1=value1")!,
                                          headers: ["host": "example.amazonaws.com"], payloadHash: emptyHash, date: suiteDate,
                                          sendsPayloadHash: false)
        XCTAssertEqual(headers["authorization"]?.components(separatedBy: "Signature=").last,
                       "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb")
    }

    /// S3 API reference, "Example: GET Object": the first ten bytes of examplebucket/test.txt.
    func testS3GetObjectWithARange() {
        let headers = s3.signedHeaders(method: "GET", url: URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")!,
                                       headers: ["Host": "examplebucket.s3.amazonaws.com", "Range": "bytes=0-9"], payloadHash: emptyHash,
                                       date: s3Date)
        XCTAssertEqual(headers["x-amz-content-sha256"], emptyHash)
        XCTAssertEqual(headers["authorization"],
                       "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                           + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                           + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    /// S3 API reference, "Authenticating Requests: Using Query Parameters": a day's GET of test.txt.
    func testS3PresignedURL() {
        let url = s3.presignedURL(method: "GET", url: URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")!, seconds: 86400, date: s3Date)
        XCTAssertEqual(url.absoluteString,
                       "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                           + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z"
                           + "&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                           + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    /// A presigned URL is good for at most seven days, whatever is asked.
    func testPresignedValidityIsCappedAtSevenDays() {
        let url = s3.presignedURL(method: "GET", url: URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")!, seconds: 10_000_000, date: s3Date)
        XCTAssertTrue(url.absoluteString.contains("X-Amz-Expires=604800&"), url.absoluteString)
    }

    func testHostHeaderCarriesANonDefaultPortOnly() {
        XCTAssertEqual(SignatureV4.hostHeader(URL(string: "http://127.0.0.1:9000/b/k")!), "127.0.0.1:9000")
        XCTAssertEqual(SignatureV4.hostHeader(URL(string: "https://s3.amazonaws.com:443/b")!), "s3.amazonaws.com")
        XCTAssertEqual(SignatureV4.hostHeader(URL(string: "http://minio/b")!), "minio")
    }
}
