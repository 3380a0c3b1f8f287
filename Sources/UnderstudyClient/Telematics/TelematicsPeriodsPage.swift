import Foundation

/// `TelematicsPeriodsPage`: one page of periods with the paging totals.
public struct TelematicsPeriodsPage: Sendable, Codable, Equatable {
    /// The periods of this page, oldest first.
    public var items: [TelematicsPeriod]
    /// This page's number, from 1.
    public var page: Int
    /// Periods per page.
    public var pageSize: Int
    /// Periods matching the query on all pages.
    public var totalItems: Int
    /// How many pages there are.
    public var totalPages: Int
    /// Whether a later page exists.
    public var hasNext: Bool
}
