import Foundation

/// What the SDK may record about a user; every member is optional.
public struct AsleepUserMetadata: Sendable, Codable, Equatable {
    /// Year of birth.
    public var birthYear: Int?
    /// Month of birth, 1–12.
    public var birthMonth: Int?
    /// Day of birth, 1–31.
    public var birthDay: Int?
    /// `male`, `female`, `non_binary`, `other` or `prefer_not_to_say`.
    public var gender: String?
    /// Height in centimetres.
    public var height: Double?
    /// Weight in kilograms.
    public var weight: Double?

    /// Metadata to attach to a user; nil members are omitted.
    public init(birthYear: Int? = nil, birthMonth: Int? = nil, birthDay: Int? = nil, gender: String? = nil, height: Double? = nil, weight: Double? = nil) {
        self.birthYear = birthYear
        self.birthMonth = birthMonth
        self.birthDay = birthDay
        self.gender = gender
        self.height = height
        self.weight = weight
    }
}
