/// Numbers read from environment settings, checked against the range each allows. An unset or
/// empty setting leaves the value as it is; anything else that is not a number in the range is an
/// error naming the setting, what it was given and what it takes, so every setting answers alike.
extension ReelworkConfig {
    static func seconds(_ name: String, _ env: [String: String], _ value: inout Double, in range: ClosedRange<Double>) throws {
        guard let text = env[name], !text.isEmpty else { return }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw ReelworkError.configuration(
                "\(name)='\(text.prefix(40))' must be a number of seconds from \(bound(range.lowerBound)) to \(bound(range.upperBound))")
        }
        value = number
    }

    static func whole(_ name: String, _ env: [String: String], _ value: inout Int, in range: ClosedRange<Int>) throws {
        guard let text = env[name], !text.isEmpty else { return }
        guard let number = Int(text), range.contains(number) else {
            throw ReelworkError.configuration("\(name)='\(text.prefix(40))' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        value = number
    }

    /// A bound as a person writes it: 3600, not 3600.0; 0.05 as it is.
    static func bound(_ number: Double) -> String { Int(exactly: number).map(String.init) ?? String(number) }
}
