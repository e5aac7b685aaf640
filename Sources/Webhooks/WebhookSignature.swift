import Crypto
import Foundation

/// The `webhook-signature` header of the Standard Webhooks specification, version 1:
/// `v1,` + base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")). While a rotation's grace period
/// lasts both secrets sign, and the header lists both signatures separated by a space; a receiver
/// accepts the delivery if any of them matches its secret.
public enum WebhookSignature {
    /// One signature (`v1,…`) of `body` sent as delivery `id` at `timestamp` (Unix seconds).
    public static func sign(id: String, timestamp: Int, body: Data, secret: WebhookSecret) -> String {
        var message = Data("\(id).\(timestamp).".utf8)
        message.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret.key))
        return "v1," + Data(mac).base64EncodedString()
    }

    /// The header value: one signature per secret, in the order given (the current secret first).
    public static func header(id: String, timestamp: Int, body: Data, secrets: [WebhookSecret]) -> String {
        secrets.map { sign(id: id, timestamp: timestamp, body: body, secret: $0) }.joined(separator: " ")
    }
}
