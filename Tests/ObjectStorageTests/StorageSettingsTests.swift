import Foundation
import ReelworkCore
import TestSupport
import XCTest

final class StorageSettingsTests: XCTestCase {
    let s3: [String: String] = [
        "REELWORK_STORAGE": "s3", "REELWORK_S3_ENDPOINT": "http://127.0.0.1:9000", "REELWORK_S3_BUCKET": "clips",
        "AWS_ACCESS_KEY_ID": "key", "AWS_SECRET_ACCESS_KEY": "secret"
    ]

    func testLocalIsTheDefault() throws {
        XCTAssertEqual(try StorageSettings.fromEnvironment([:]), .local)
        XCTAssertEqual(try StorageSettings.fromEnvironment(["REELWORK_STORAGE": "LOCAL"]), .local)
    }

    func testS3SettingsAreRead() throws {
        guard case .s3(let settings) = try StorageSettings.fromEnvironment(s3.merging(["REELWORK_S3_PATH_STYLE": "1"]) { $1 }) else {
            return XCTFail("not s3")
        }
        XCTAssertEqual(settings.endpoint.absoluteString, "http://127.0.0.1:9000")
        XCTAssertEqual(settings.bucket, "clips")
        XCTAssertEqual(settings.region, "us-east-1")
        XCTAssertTrue(settings.pathStyle)
        XCTAssertEqual(settings.accessKeyID, "key")
        XCTAssertNil(settings.publicEndpoint, "clients reach the store where the coordinator does, unless told otherwise")
        guard
            case .s3(let outside) = try StorageSettings.fromEnvironment(
                s3.merging(["REELWORK_S3_PUBLIC_ENDPOINT": "https://files.example.org/"]) { $1 })
        else {
            return XCTFail("not s3")
        }
        XCTAssertEqual(outside.publicEndpoint?.absoluteString, "https://files.example.org")
        XCTAssertEqual(settings.readTimeoutSeconds, 15, "a slow store's answer is waited for 15 s unless told otherwise")
        guard case .s3(let impatient) = try StorageSettings.fromEnvironment(s3.merging(["REELWORK_S3_READ_TIMEOUT_SECONDS": "2.5"]) { $1 }) else {
            return XCTFail("not s3")
        }
        XCTAssertEqual(impatient.readTimeoutSeconds, 2.5)
    }

    func testEachBadValueIsNamed() {
        let cases: [([String: String], String)] = [
            (["REELWORK_STORAGE": "ftp"], "REELWORK_STORAGE='ftp' must be local or s3"),
            (s3.filter { $0.key != "REELWORK_S3_BUCKET" }, "REELWORK_S3_BUCKET is required"),
            (s3.filter { $0.key != "REELWORK_S3_ENDPOINT" }, "REELWORK_S3_ENDPOINT is required"),
            (s3.merging(["REELWORK_S3_ENDPOINT": "127.0.0.1:9000"]) { $1 }, "REELWORK_S3_ENDPOINT='127.0.0.1:9000' must be an http or https URL"),
            (s3.merging(["REELWORK_S3_ENDPOINT": "https://s3.example.org/prefix"]) { $1 }, "must be an http or https URL of the store with no path"),
            (
                s3.merging(["REELWORK_S3_PUBLIC_ENDPOINT": "files.example.org"]) { $1 },
                "REELWORK_S3_PUBLIC_ENDPOINT='files.example.org' must be an http or https URL"
            ),
            (s3.merging(["REELWORK_S3_BUCKET": "My_Bucket"]) { $1 }, "REELWORK_S3_BUCKET='My_Bucket' is not a bucket name"),
            (s3.merging(["REELWORK_S3_BUCKET": "ab"]) { $1 }, "is not a bucket name"),
            (s3.merging(["REELWORK_S3_REGION": "EU West"]) { $1 }, "REELWORK_S3_REGION='EU West' is not a region name"),
            (s3.merging(["REELWORK_S3_PATH_STYLE": "maybe"]) { $1 }, "REELWORK_S3_PATH_STYLE='maybe' must be 1 or 0"),
            (
                s3.merging(["REELWORK_S3_READ_TIMEOUT_SECONDS": "0"]) { $1 },
                "REELWORK_S3_READ_TIMEOUT_SECONDS='0' must be a number of seconds from 1 to 19"
            ),
            (s3.merging(["REELWORK_S3_READ_TIMEOUT_SECONDS": "nan"]) { $1 }, "REELWORK_S3_READ_TIMEOUT_SECONDS='nan' must be a number of seconds"),
            (s3.merging(["REELWORK_S3_READ_TIMEOUT_SECONDS": "20"]) { $1 }, "REELWORK_S3_READ_TIMEOUT_SECONDS='20' must be a number of seconds"),
            (s3.filter { $0.key != "AWS_SECRET_ACCESS_KEY" }, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are required"),
            (
                s3.merging(["REELWORK_S3_CREDENTIALS_FILE": "/nonexistent/credentials"]) { $1 },
                "REELWORK_S3_CREDENTIALS_FILE='/nonexistent/credentials' cannot be read"
            )
        ]
        for (environment, expected) in cases {
            XCTAssertThrowsError(try StorageSettings.fromEnvironment(environment), expected) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) does not say '\(expected)'")
            }
        }
    }

    /// A mounted secret: the file's keys win over the environment's.
    func testCredentialsComeFromTheFileWhenOneIsNamed() throws {
        let scratch = try ScratchDirectory(prefix: "s3-credentials")
        defer { scratch.remove() }
        let file = scratch.path("credentials")
        try "AWS_ACCESS_KEY_ID = from-file\nAWS_SECRET_ACCESS_KEY=file-secret\n".write(toFile: file, atomically: true, encoding: .utf8)
        guard case .s3(let settings) = try StorageSettings.fromEnvironment(s3.merging(["REELWORK_S3_CREDENTIALS_FILE": file]) { $1 }) else {
            return XCTFail("not s3")
        }
        XCTAssertEqual(settings.accessKeyID, "from-file")
        XCTAssertEqual(settings.secretAccessKey, "file-secret")
        try "AWS_ACCESS_KEY_ID=only-the-id\n".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try StorageSettings.fromEnvironment(s3.merging(["REELWORK_S3_CREDENTIALS_FILE": file]) { $1 })) { error in
            XCTAssertTrue("\(error)".contains("none found in \(file)"), "\(error)")
        }
    }
}
