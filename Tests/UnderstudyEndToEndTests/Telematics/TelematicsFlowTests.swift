import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Telematics SDK flow")
struct TelematicsFlowTests {
    @Test("init → user → vehicle → kilometres → drive upload → trip, details, metrics, periods")
    func fullFlow() async throws {
        try await TelematicsFixture.with { server, project, admin in
            let pair = try await admin.mintTokens(userId: 501, userName: "Ana Silva")
            #expect(pair.refreshToken != nil && pair.tokenExpires == "2026-11-03T13:00:00.000000Z")
            let sdk = server.client.telematics.session(pair, deviceClock: { TelematicsFixture.epochDate })

            let user = try await sdk.initSDK()
            #expect(user.userId == 501 && user.userName == "Ana Silva")
            #expect(await sdk.getSessionState().status == .verified)

            // Vehicle: catalogues are name → code; the full form creates, plate-only selects, unknown plate is 404.
            let fuel = try await sdk.getFuelTypes()
            #expect(fuel["Diesel"] == 1 && fuel["Gasoline"] == 2)
            let types = try await sdk.getVehicleTypes(), reasons = try await sdk.getAddVehicleReasons()
            let vehicle = try await sdk.setVehicle(plate: "AA-00-AA", internalPlate: "F1", type: types["Car"]!, addReason: reasons["Rental"]!, fuelType: fuel["Diesel"]!)
            #expect(vehicle.typeName == "Car" && vehicle.fuelTypeName == "Diesel" && vehicle.addReasonName == "Rental")
            let byPlate = try await sdk.setVehicle(plate: "aa 00 aa")
            #expect(byPlate.id == vehicle.id && byPlate.plate == "AA-00-AA")
            await #expect { try await sdk.setVehicle(plate: "ZZ-99-ZZ") } throws: { TelematicsFixture.errorCode($0)! == (404, "VEHICLE_NOT_FOUND") }
            #expect(try await sdk.getCurrentVehicleInfo().id == vehicle.id)

            // Kilometres: estimate −1 before any report, reports must not decrease, corrections are count-based.
            #expect(try await sdk.getEstimatedMileage() == -1)
            try await sdk.reportKilometers(kilometers: 1200, observations: "Routine check")
            let second = try await sdk.reportKilometers(kilometers: 1300)
            #expect(second.corrected == false && second.kilometers == 1300)
            await #expect { try await sdk.reportKilometers(kilometers: 1100) } throws: { TelematicsFixture.errorCode($0)! == (422, "KILOMETERS_DECREASING") }
            await #expect { try await sdk.reportKilometers(kilometers: -5) } throws: { TelematicsFixture.errorCode($0)! == (400, "INVALID_REQUEST") }
            await #expect { try await sdk.correctKilometers(kilometers: 1250, correctionCount: 3) } throws: {
                TelematicsFixture.errorCode($0)! == (422, "INVALID_CORRECTION_COUNT")
            }
            let correction = try await sdk.correctKilometers(kilometers: 1250, observations: "typo", correctionCount: 2)
            #expect(correction.correctionCount == 2 && correction.reports.count == 2)
            #expect(correction.reports.allSatisfy { $0.corrected && $0.kilometers == 1250 && $0.correctedAt != nil })
            #expect(try await sdk.getEstimatedMileage() == 1250)

            // A ten-minute drive ending a minute ago: 300 samples at 15 m/s (≈ 9 km), in three batches, one gzipped.
            let start = TelematicsFixture.epochMs - 11 * 60_000
            let samples = TelematicsFixture.drive(startMs: start, count: 300)
            let braking = TelematicsBatchEvent(type: "hardBraking", timestampMs: start + 200_000)
            let first = TelematicsTelemetryBatch(samples: Array(samples[0..<100]), events: [braking])
            let upload = try await sdk.uploadTelemetry(first)
            #expect(upload.accepted == 100 && upload.duplicate == nil)
            let repeated = try await sdk.uploadTelemetry(first)
            #expect(repeated.duplicate == true && repeated.batchId == upload.batchId && repeated.accepted == 100)
            // The SDK sends a batch again only when the answer never reached it: the checks report this one.
            let projectAdmin = server.client.admin.project(project.id)
            #expect(try await projectAdmin.findings().map(\.rule) == ["telematics.batch-reuploaded"])
            try await projectAdmin.clearFindings()
            try await sdk.uploadTelemetry(TelematicsTelemetryBatch(samples: Array(samples[100..<200])), gzip: true)
            try await sdk.uploadTelemetry(TelematicsTelemetryBatch(samples: Array(samples[200..<300])))

            // Marks during the drive: a manual event links to the open period (the trip does not exist yet) …
            let mark = try await sdk.insertManualEvent(eventType: .hardBrakingHighSpeed, timestamp: "2026-11-03T11:54:00Z", latitude: 40.23, longitude: -8.4)
            #expect(mark.tripId == nil && mark.periodId != nil)
            // … and two overlapping attention windows (5 s apart), one uploaded twice.
            let windowStart = TelematicsFixture.epochMs - 6 * 60_000
            let attention = [
                TelematicsAttentionEvent(startTimestampMs: windowStart, confidence: 0.9, averageSpeedMps: 15),
                TelematicsAttentionEvent(startTimestampMs: windowStart + 5_000, confidence: 0.8),
            ]
            let accepted = try await sdk.uploadAttentionEvents(attention)
            #expect(accepted.accepted == 2 && accepted.duplicates == 0)
            let again = try await sdk.uploadAttentionEvents([attention[0]])
            #expect(again.accepted == 0 && again.duplicates == 1)

            // The period stays open until ten minutes of sample time pass on the project clock.
            #expect(try await sdk.getTripsList().isEmpty)
            #expect(try await sdk.getTelematicsPeriods(isProcessed: false).totalItems == 1)
            _ = try await server.client.admin.project(project.id).advanceClock(by: 11 * 60)

            let trips = try await sdk.getTripsList()
            #expect(trips.count == 1)
            let trip = try #require(trips.first)
            #expect(trip.distanceKm > 8.7 && trip.distanceKm < 9.2)
            #expect(trip.durationSec == 598)
            #expect(abs(trip.maxSpeedKmh - 54) < 0.01 && abs(trip.avgSpeedKmh - 54) < 1)
            #expect(trip.vehicleId == vehicle.id)
            #expect(trip.hardBrakingCount == 1 && trip.distractionCount == 1 && trip.distractionDurationSec == 15 && trip.manualEventCount == 1)
            #expect(trip.score == 90)

            let details = try await sdk.getTripById(tripId: trip.id, includeSamples: true)
            #expect(details.samples.count == 300 && details.samples.first?.speedKmh == 54)
            #expect(details.events.map(\.source).sorted() == ["detected", "manual"])
            #expect(details.events.allSatisfy { $0.type == "hardBrakingHighSpeed" })
            #expect(details.attentionEvents.count == 2 && details.attentionEvents[0].averageSpeedMps == 15)
            #expect(try await sdk.getTripById(tripId: trip.id, includeSamples: false).samples.isEmpty)
            await #expect { try await sdk.getTripById(tripId: 999, includeSamples: false) } throws: { TelematicsFixture.errorCode($0)! == (404, "TRIP_NOT_FOUND") }

            let metrics = try await sdk.getMetricsSummary(startTs: TelematicsFixture.epochDate.addingTimeInterval(-86_400), endTs: TelematicsFixture.epochDate)
            #expect(metrics.tripCount == 1 && metrics.distanceKm == trip.distanceKm && metrics.durationSec == 598 && metrics.score == 90)
            #expect(metrics.from == "2026-11-02T12:00:00.000000Z")
            #expect(try await sdk.getMetricsSummary(startTs: TelematicsFixture.epochDate).tripCount == 0)
            let activity = try await sdk.getActivityMetricsSummary()
            #expect(activity.activities.first { $0.activity == "driving" }?.count == 1 && activity.from == nil)

            let periods = try await sdk.getTelematicsPeriods(isProcessed: true)
            #expect(periods.totalItems == 1 && periods.items[0].tripCount == 1 && periods.items[0].sampleCount == 300)
            #expect(periods.items[0].vehicleId == vehicle.id && periods.items[0].attentionEventCount == 2)
            #expect(try await sdk.getTelematicsPeriods(isProcessed: false).totalItems == 0)

            // The manual mark is now linked to the trip; the duplicate batch was counted, not re-ingested.
            #expect(try await admin.manualEvents(userId: 501)["events"]?[0]?["tripId"] == .int(Int64(trip.id)))
            #expect(try await admin.batches(userId: 501)["batches"]?[0]?["repeatCount"] == 1)
            #expect(try await admin.attentionEvents()["events"]?[0]?["duplicateCount"] == 1)
        }
    }

    @Test("periods are paged 1-based with totals; all periods walk every page; 404 for unknown ids")
    func periodsPaging() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let sdk = server.client.telematics.session(try await admin.mintTokens(userId: 7), deviceClock: { TelematicsFixture.epochDate })
            let seeded = try await admin.seedPeriods(userId: 7, startedAt: "2026-10-01T08:00:00Z", endedAt: "2026-10-01T08:30:00Z", count: 45, spacingSeconds: 3600)
            #expect(seeded.count == 45 && seeded.allSatisfy(\.isProcessed))
            try await admin.seedPeriods(userId: 7, startedAt: "2026-11-03T11:55:00Z", endedAt: nil) // open: within 600 s of the frozen 12:00

            let first = try await sdk.getTelematicsPeriods()
            #expect(first.page == 1 && first.pageSize == 20 && first.totalItems == 46 && first.totalPages == 3 && first.hasNext)
            #expect(first.items[0].endedAt == nil && first.items[0].isProcessed == false) // newest first
            let last = try await sdk.getTelematicsPeriods(isProcessed: true, page: 3)
            #expect(last.items.count == 5 && !last.hasNext && last.totalItems == 45)
            #expect(try await sdk.getTelematicsPeriods(page: 9).items.isEmpty)
            #expect(try await sdk.getAllTelematicsPeriods().count == 46)
            #expect(try await sdk.getAllTelematicsPeriods(startTs: try Date("2026-10-02T00:00:00Z", strategy: .iso8601), isProcessed: true).count == 45 - 16)
            #expect(try await sdk.getTelematicsPeriod(id: seeded[3].id) == seeded[3])
            await #expect { try await sdk.getTelematicsPeriod(id: 4242) } throws: { TelematicsFixture.errorCode($0)! == (404, "PERIOD_NOT_FOUND") }
        }
    }

    @Test("the demo project serves its fixtures with the documented token")
    func demoFixtures() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let options = TelematicsTokenInitOptions(
                baseURL: server.client.telematics.baseURL, token: "tma_demo000000_DemoAccessToken0000000000000000001",
                refreshToken: "tmr_demo000000_DemoRefreshToken000000000000000000001")
            let sdk = server.client.telematics.session(options)
            #expect(try await sdk.initSDK().userName == "Ana Silva")
            #expect(try await sdk.getCurrentVehicleInfo().plate == "AA-00-AA")
            let trips = try await sdk.getTripsList()
            #expect(trips.count == 4 && trips.allSatisfy { $0.distanceKm > 1 })
            #expect(trips.contains { $0.hardBrakingCount == 1 })
            #expect(try await sdk.getEstimatedMileage() > 15_230)
        }
    }
}
