import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The text of each element in a small S3 answer, in order, by element name (the answers are
/// flat enough that a name says which field it is: `Key`, `Size`, `Code`…).
final class S3XMLFields: NSObject, XMLParserDelegate {
    private(set) var fields: [(name: String, text: String)] = []
    private var text = ""

    static func parse(_ data: Data) -> [(name: String, text: String)]? {
        guard !data.isEmpty else { return nil }
        let collector = S3XMLFields()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        parser.shouldResolveExternalEntities = false
        return parser.parse() ? collector.fields : nil
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        fields.append((elementName, text.trimmingCharacters(in: .whitespacesAndNewlines)))
        text = ""
    }
}
