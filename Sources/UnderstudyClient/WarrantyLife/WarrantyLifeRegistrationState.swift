import Foundation

/// `registerDevice` state updates.
public enum WarrantyLifeRegistrationState: Sendable, Equatable {
    /// The workflow started; nothing is uploaded yet.
    case submitted
    /// A stage finished: 25 item, 50 sensor event, 75 sensor uploads, 100 diagnostics and images.
    case progress(Int)
    /// Everything is uploaded.
    case success
    /// Local data is missing (`missingIMEI`, `missingSensorTestData`, `missingReceiptImage`); nothing was sent.
    case validationError(String)
    /// The network workflow failed; the host may call `registerDevice` again.
    case uploadError(message: String, code: Int)
}
