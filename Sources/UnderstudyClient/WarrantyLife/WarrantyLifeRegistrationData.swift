import Foundation

/// The data `registerDevice` uploads, as the SDK collects it from the tests the host ran.
public struct WarrantyLifeRegistrationData: Sendable {
    /// The device's marketing name, e.g. `iPhone 13 Pro`.
    public var model: String
    /// The device's machine id, e.g. `iPhone14,2`.
    public var mpn: String
    /// The IMEI the host set with `setIMEI(_:)`; `registerDevice` stops with `missingIMEI` without it.
    public var imei: String?
    /// When the Sensor Test ran, local time `yyyy-MM-dd HH:mm:ss.SSS`; repeats of it reuse the first sensor event.
    public var eventAt: String
    /// Readings (each a JSON object).
    public var readings: [AnyJSON]
    /// Recorded audio clip, if any.
    public var audio: Data?
    /// The diagnostic report body (auto test results etc.).
    public var diagnostic: [String: AnyJSON]
    /// Images by kind (`reference`, `test`, `receipt`, …), uploaded in this order.
    public var images: [(kind: String, data: Data)]

    /// Registration data as the SDK would have collected it.
    public init(model: String, mpn: String, imei: String?, eventAt: String, readings: [AnyJSON], audio: Data?, diagnostic: [String: AnyJSON], images: [(kind: String, data: Data)])
    {
        self.model = model; self.mpn = mpn; self.imei = imei; self.eventAt = eventAt; self.readings = readings
        self.audio = audio; self.diagnostic = diagnostic; self.images = images
    }
}
