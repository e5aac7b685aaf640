/// The coordinator's OpenAPI 3.1 document: `openapi.json` beside this file, compiled in by
/// SwiftPM (`embedInCode`), so the binary serves it with no file or resource bundle next to it.
/// Edit the JSON; the contract tests check it against the router and the live server.
public enum APIDocument {
    /// The document's bytes, exactly as in the repository.
    public static var bytes: [UInt8] { PackageResources.openapi_json }
}
