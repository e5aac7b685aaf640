import ReelworkCore
import Webhooks

extension WebhookSettings {
    /// The URL policy these settings describe.
    /// - Throws: `ReelworkError.configuration` naming `REELWORK_WEBHOOK_ALLOW_ADDRESSES` when a block cannot be read.
    func urlPolicy() throws -> WebhookURLPolicy {
        do {
            return WebhookURLPolicy(allowPrivate: allowPrivate, allowedRanges: try allowAddresses.map(IPRange.init(parsing:)))
        } catch {
            throw ReelworkError.configuration("\(Env.allowAddresses): \(error)")
        }
    }
}
