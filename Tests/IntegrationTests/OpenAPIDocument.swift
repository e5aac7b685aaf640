import Foundation
import XCTest

/// The repository's OpenAPI document (`openapi/openapi.json`), read as plain JSON for the contract
/// tests: its operations, and its components with `$ref`s followed.
struct OpenAPIDocument {
    static let url = TestStack.packageRoot.appendingPathComponent("openapi/openapi.json")
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    struct Operation {
        /// Upper case, as the router prints it.
        let method: String
        /// OpenAPI's template syntax (`/v1/jobs/{id}`).
        let path: String
        let object: [String: Any]

        var label: String { "\(method) \(path)" }
        var id: String? { object["operationId"] as? String }
    }

    let bytes: Data
    let root: [String: Any]

    init() throws {
        bytes = try Data(contentsOf: Self.url)
        root = try XCTUnwrap(JSONSerialization.jsonObject(with: bytes) as? [String: Any], "\(Self.url.path) is not a JSON object")
    }

    var operations: [Operation] {
        let paths = root["paths"] as? [String: Any] ?? [:]
        return paths.sorted { $0.key < $1.key }.flatMap { path, item in
            let item = item as? [String: Any] ?? [:]
            return Self.methods.compactMap { method in
                (item[method] as? [String: Any]).map { Operation(method: method.uppercased(), path: path, object: $0) }
            }
        }
    }

    /// The object a `{"$ref": "#/components/..."}` points to (or `value` itself when it is no reference).
    func resolve(_ value: Any?) -> [String: Any]? {
        guard let object = value as? [String: Any] else { return nil }
        guard let ref = object["$ref"] as? String else { return object }
        guard ref.hasPrefix("#/") else { return nil }
        var node: Any? = root
        for key in ref.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(key)] }
        return resolve(node)
    }

    /// Every `$ref` in the document, with where it is (for the test that they all resolve).
    func references() -> [(at: String, ref: String)] {
        var found: [(String, String)] = []
        func walk(_ node: Any, _ at: String) {
            if let object = node as? [String: Any] {
                if let ref = object["$ref"] as? String { found.append((at, ref)) }
                for (key, value) in object { walk(value, at + "/" + key) }
            } else if let array = node as? [Any] {
                for (i, value) in array.enumerated() { walk(value, "\(at)/\(i)") }
            }
        }
        walk(root, "#")
        return found
    }

    /// The `enum` of `components/schemas/NAME`, as strings.
    func enumValues(_ name: String) -> [String] {
        let schema = resolve(["$ref": "#/components/schemas/\(name)"])
        return (schema?["enum"] as? [Any] ?? []).map { "\($0)" }
    }

    /// The operation's parameters with references followed.
    func parameters(of operation: Operation) -> [[String: Any]] {
        (operation.object["parameters"] as? [Any] ?? []).compactMap { resolve($0) }
    }

    /// The security requirements that apply: the operation's own, else the document's.
    func security(of operation: Operation) -> [[String: Any]] {
        (operation.object["security"] ?? root["security"]) as? [[String: Any]] ?? []
    }
}
