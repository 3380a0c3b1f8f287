import EmulatorCore
import Foundation

/// An ordered parameter set where a later value replaces an earlier one but keeps its position.
public struct ParameterSet: Sendable, Equatable {
    /// The pairs, in first-appearance order.
    public private(set) var pairs: [(name: String, value: String)] = []

    /// An empty set.
    public init() {}

    /// A set from pairs (later duplicates win).
    public init(_ items: [(String, String)]) { for (name, value) in items { set(name, value) } }

    /// Sets `name` to `value`.
    public mutating func set(_ name: String, _ value: String) {
        if let index = pairs.firstIndex(where: { $0.name == name }) { pairs[index].value = value } else { pairs.append((name, value)) }
    }

    /// Sets every pair of `other`, in its order.
    public mutating func merge(_ other: ParameterSet) { for pair in other.pairs { set(pair.name, pair.value) } }

    /// Whether empty.
    public var isEmpty: Bool { pairs.isEmpty }

    /// As a JSON object of strings.
    public var json: JSONValue { .object(Dictionary(pairs.map { ($0.name, JSONValue.string($0.value)) }, uniquingKeysWith: { _, last in last })) }

    /// Equal when the same pairs are in the same order.
    public static func == (lhs: ParameterSet, rhs: ParameterSet) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
