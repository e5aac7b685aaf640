extension JSONValue {
    /// This document with `patch` applied as a JSON Merge Patch (RFC 7386): an object patch sets
    /// each of its keys, recursively, and a null value removes the key; any other patch replaces
    /// the document. A retry sends only the option it adds (`{"hoop": …}`), keeping the rest.
    public func merging(_ patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var fields: [String: JSONValue]
        if case .object(let existing) = self { fields = existing } else { fields = [:] }
        for (key, change) in changes {
            if change == .null {
                fields[key] = nil
            } else {
                fields[key] = (fields[key] ?? .null).merging(change)
            }
        }
        return .object(fields)
    }
}
