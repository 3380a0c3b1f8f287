import EmulatorCore
import Foundation

/// The content a project starts with until the control plane replaces it (D-WL-12, D-WL-13, D-WL-14).
enum DefaultContent {
    /// Content names the control plane can replace.
    static let names = ["appConfig", "offers", "offersRegistrationHTML", "offersRewardScreenHTML", "surveys", "sensorTests", "diagnosticConfig"]

    /// US (50 states + DC, ids 101…) and CA (13 provinces and territories, ids 201…); ids are stable.
    static let appConfig: JSONValue = [
        "countries": [
            ["id": 1, "code": "US", "name": "United States", "provinces": .array(provinces(usStates, base: 100))],
            ["id": 2, "code": "CA", "name": "Canada", "provinces": .array(provinces(canadianProvinces, base: 200))],
        ]
    ]

    private static func provinces(_ rows: [(String, String)], base: Int64) -> [JSONValue] {
        rows.enumerated().map { index, row in ["id": .int(base + Int64(index) + 1), "code": .string(row.0), "name": .string(row.1)] }
    }

    /// The 2022 stored Sensor Test (id `3`): ref1, vibe, a 19.4–20 kHz tone sweep, ref2.
    static let sensorTest: JSONValue = [
        "id": "3", "name": "Standard sensor test", "description": "Motion, vibration and tone sweep.",
        "sensorTestPhases": [
            ["id": "18", "phase": 50, "durationMs": 50],
            ["id": "19", "phase": 5000, "durationMs": 500],
            ["id": "20", "phase": 5100, "durationMs": 1000],
            ["id": "21", "phase": 5200, "durationMs": 4000, "argInt1": 19400, "argInt2": 20000, "argInt3": 200],
            ["id": "22", "phase": 5900, "durationMs": 500],
        ],
    ]

    /// Diagnostic requirements of a voucher that does not override them: no Sensor Test unless the
    /// voucher names one (`VoucherRecord.diagnosticRequirements`).
    static let diagnosticRequirements: JSONValue = [
        "autoTestRequired": true, "sensorTestRequired": false, "frontCameraTestRequired": true, "backCameraTestRequired": true,
        "openFaceTestRequired": false, "bluetoothScan": false, "wifiScan": false, "recordAudio": false, "sensorTest": .null,
    ]

    /// Sensor tests served at `/sensor-tests`.
    static let sensorTests: JSONValue = [sensorTest]

    /// Diagnostic configuration per model; `*` applies to any model not listed.
    static let diagnosticConfig: JSONValue = ["*": ["sensorTest": sensorTest]]

    /// Survey versions by number, each `{surveyVersion, questions}`.
    static let surveys: JSONValue = [
        "1": [
            "surveyVersion": 1,
            "questions": [
                [
                    "id": 1, "name": "How often do you drop your phone?",
                    "surveyOptions": [
                        ["id": 11, "transDesc": "Never"], ["id": 12, "transDesc": "Monthly"], ["id": 13, "transDesc": "Weekly"],
                    ],
                ],
                ["id": 2, "name": "Do you use a case?", "surveyOptions": [["id": 21, "transDesc": "Yes"], ["id": 22, "transDesc": "No"]]],
            ],
        ]
    ]

    /// JSON offers at `/offers`.
    static let offers: JSONValue = [
        ["id": "1", "type": "SSR", "title": "SmartSaver Reward", "description": "Earn monthly rewards for careful use.", "expiresAt": "2030-01-01T00:00:00Z"],
        ["id": "2", "type": "SSD", "title": "SmartSaver AI Deductible", "description": "A lower deductible for safe handling.", "expiresAt": "2030-01-01T00:00:00Z"],
    ]

    /// Registration offers page; `{{query}}` is replaced by the escaped query values.
    static let offersRegistrationHTML: JSONValue =
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Offers</title></head><body><h1>Offers</h1><p>{{query}}</p></body></html>"

    /// Reward screen page.
    static let offersRewardScreenHTML: JSONValue =
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Rewards</title></head><body><h1>Rewards</h1><p>{{query}}</p></body></html>"

    /// The default for `name`.
    static func value(_ name: String) -> JSONValue {
        switch name {
        case "appConfig": return appConfig
        case "offers": return offers
        case "offersRegistrationHTML": return offersRegistrationHTML
        case "offersRewardScreenHTML": return offersRewardScreenHTML
        case "surveys": return surveys
        case "sensorTests": return sensorTests
        case "diagnosticConfig": return diagnosticConfig
        default: return .null
        }
    }
}

/// US states and DC, in id order (101…).
private let usStates: [(String, String)] = [
    ("AL", "Alabama"),
    ("AK", "Alaska"),
    ("AZ", "Arizona"),
    ("AR", "Arkansas"),
    ("CA", "California"),
    ("CO", "Colorado"),
    ("CT", "Connecticut"),
    ("DE", "Delaware"),
    ("DC", "District of Columbia"),
    ("FL", "Florida"),
    ("GA", "Georgia"),
    ("HI", "Hawaii"),
    ("ID", "Idaho"),
    ("IL", "Illinois"),
    ("IN", "Indiana"),
    ("IA", "Iowa"),
    ("KS", "Kansas"),
    ("KY", "Kentucky"),
    ("LA", "Louisiana"),
    ("ME", "Maine"),
    ("MD", "Maryland"),
    ("MA", "Massachusetts"),
    ("MI", "Michigan"),
    ("MN", "Minnesota"),
    ("MS", "Mississippi"),
    ("MO", "Missouri"),
    ("MT", "Montana"),
    ("NE", "Nebraska"),
    ("NV", "Nevada"),
    ("NH", "New Hampshire"),
    ("NJ", "New Jersey"),
    ("NM", "New Mexico"),
    ("NY", "New York"),
    ("NC", "North Carolina"),
    ("ND", "North Dakota"),
    ("OH", "Ohio"),
    ("OK", "Oklahoma"),
    ("OR", "Oregon"),
    ("PA", "Pennsylvania"),
    ("RI", "Rhode Island"),
    ("SC", "South Carolina"),
    ("SD", "South Dakota"),
    ("TN", "Tennessee"),
    ("TX", "Texas"),
    ("UT", "Utah"),
    ("VT", "Vermont"),
    ("VA", "Virginia"),
    ("WA", "Washington"),
    ("WV", "West Virginia"),
    ("WI", "Wisconsin"),
    ("WY", "Wyoming"),
]

/// Canadian provinces and territories, in id order (201…).
private let canadianProvinces: [(String, String)] = [
    ("AB", "Alberta"),
    ("BC", "British Columbia"),
    ("MB", "Manitoba"),
    ("NB", "New Brunswick"),
    ("NL", "Newfoundland and Labrador"),
    ("NS", "Nova Scotia"),
    ("NT", "Northwest Territories"),
    ("NU", "Nunavut"),
    ("ON", "Ontario"),
    ("PE", "Prince Edward Island"),
    ("QC", "Quebec"),
    ("SK", "Saskatchewan"),
    ("YT", "Yukon"),
]
