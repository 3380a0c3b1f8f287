import EmulatorCore
import Foundation

/// The SDK's trip list written straight from records: the bytes `Wire.tripResume` trees print,
/// members in the same (sorted) order, without a tree per trip. A list of 100 trips spent most of
/// its time allocating and sorting those trees.
enum TripListEncoder {
    /// `[tripResume, …]` as JSON bytes.
    static func encode(_ trips: [TripRecord]) -> Data {
        var writer = JSONWriter(capacity: 64 + trips.count * 700)
        writer.beginArray()
        for trip in trips {
            writer.element()
            write(trip, into: &writer)
        }
        writer.endArray()
        return writer.data
    }

    /// One trip as `Wire.tripResume` prints it.
    static func write(_ trip: TripRecord, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("abruptAccelerationCount"); writer.int(trip.abruptAccelerationCount)
        writer.key("avgSpeedKmh"); number(trip.avgSpeedKmh, into: &writer)
        writer.key("distanceKm"); number(trip.distanceKm, into: &writer)
        writer.key("distractionCount"); writer.int(trip.distractionCount)
        writer.key("distractionDurationSec"); writer.int(trip.distractionDurationSec)
        writer.key("durationSec"); writer.int(trip.durationSec)
        writer.key("endLocation"); location(trip.endLatitude, trip.endLongitude, into: &writer)
        writer.key("endedAt"); writer.timestampMicroseconds(milliseconds: trip.endedMs)
        writer.key("hardBrakingCount"); writer.int(trip.hardBrakingCount)
        writer.key("hardCorneringCount"); writer.int(trip.hardCorneringCount)
        writer.key("id"); writer.int(trip.id)
        writer.key("manualEventCount"); writer.int(trip.manualEventCount)
        writer.key("maxSpeedKmh"); number(trip.maxSpeedKmh, into: &writer)
        writer.key("periodId"); writer.int(trip.periodID)
        writer.key("score"); writer.int(trip.score)
        writer.key("speedingCount"); writer.int(trip.speedingCount)
        writer.key("speedingDurationSec"); writer.int(trip.speedingDurationSec)
        writer.key("startLocation"); location(trip.startLatitude, trip.startLongitude, into: &writer)
        writer.key("startedAt"); writer.timestampMicroseconds(milliseconds: trip.startedMs)
        writer.key("vehicleId"); writer.int(trip.vehicleID)
        writer.endObject()
    }

    /// `Wire.num`: rounded to three decimals.
    private static func number(_ value: Double, into writer: inout JSONWriter) {
        writer.double(round(value * 1000) / 1000)
    }

    private static func location(_ latitude: Double?, _ longitude: Double?, into writer: inout JSONWriter) {
        guard let latitude, let longitude else { return writer.null() }
        writer.beginObject()
        writer.key("address"); writer.null()
        writer.key("latitude"); writer.double(latitude)
        writer.key("longitude"); writer.double(longitude)
        writer.endObject()
    }
}
