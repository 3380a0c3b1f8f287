import Testing

@testable import WarrantyLifeEmulator

/// The WarrantyLife checks' reading of a request's device, compared with the full query parse.
@Suite("WarrantyLife checks: the device of a query")
struct WarrantyLifeChecksUnitTests {
    @Test("deviceId is found by its bytes as the full parse finds it: first one, decoded, empty is none")
    func deviceInQuery() {
        let cases: [(String, String?)] = [
            ("isPlanTransfer=false&activeWarrantiesInCurrentDevice=0&deviceId=BENCH-DEVICE", "BENCH-DEVICE"),
            ("deviceId=A%20B&deviceId=C", "A B"), ("deviceId=a+b", "a b"), ("deviceId=", nil), ("xdeviceId=1", nil),
            ("deviceIdentifier=1&deviceId=2", "2"), ("", nil), ("deviceId", nil),
        ]
        for (query, expected) in cases {
            #expect(WarrantyLifeChecks.deviceID(inQuery: query) == expected, "\(query)")
        }
    }
}
