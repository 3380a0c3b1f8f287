import EmulatorCore
import Foundation

/// Asleep's JSON printer: the core's compact, sorted printing, except that a floating-point value
/// keeps its fraction (`0.0`, `180.0`). The real service is Python, whose floats always print
/// with one, and fields the wire documents as floats (`missing_data_ratio`, the ratios, heights)
/// must not turn into integers when they happen to be whole.
enum AsleepJSON {
    /// `value` as compact JSON bytes.
    static func encoded(_ value: JSONValue) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return Data(out)
    }

    /// `value` appended to `writer` as `encoded(_:)` prints it.
    static func write(_ value: JSONValue, into writer: inout JSONWriter) {
        writer.append { write(value, into: &$0) }
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .double(let number) where number.isFinite:
            // Swift's description is the shortest round-tripping form and always has a fraction or
            // an exponent (`1.0`, `0.025`, `1e+16`), all valid JSON numbers.
            out.append(contentsOf: "\(number)".utf8)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        default:
            value.write(into: &out)
        }
    }
}
