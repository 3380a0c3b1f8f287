import EmulatorCore
import Foundation
import Storage
import Testing

@testable import AsleepEmulator
@testable import TelematicsEmulator
@testable import WarpLinkEmulator
@testable import WarrantyLifeEmulator

/// The lookups every SDK request makes must cost the same with 10 earlier rows as with thousands.
/// Work is counted in SQLite virtual-machine steps, which are deterministic (no timing): a lookup
/// that scans history grows with it, one served by an index does not.
@Suite("Lookups that do not grow with history")
struct HistoryIndependentLookupTests {
    /// A migrated SQLite file with one project, removed when the test ends.
    final class Fixture: MigratedSQLiteFile {
        init() throws { try super.init(name: "history") }

        /// The steps `lookup` costs after `grow(from, to)` added history rows `from..<to`.
        func steps(afterGrowingTo count: Int, from start: Int, grow: (Int) throws -> Void, lookup: () throws -> Void) throws -> Int {
            try connection.transaction { for index in start..<count { try grow(index) } }
            try lookup() // the first run prepares the statement; only the second is counted
            _ = connection.takeStatementSteps()
            try lookup()
            return connection.takeStatementSteps()
        }

        /// Adds a WarpLink link of project p1 on aplnk.to.
        func insertLink(_ id: String, slug: String? = nil, created: String = "2026-01-01T00:00:00Z") throws {
            try connection.run(
                """
                INSERT INTO warplink_links (project_id, id, slug, domain, destination_url, created_at, updated_at)
                VALUES ('p1', ?, ?, 'aplnk.to', 'https://example.com', ?, ?)
                """, id, slug ?? id, created, created)
        }

        /// How many sorts `lookup` ran (after a first run that prepared its statements).
        func sorts(_ lookup: () throws -> Void) throws -> Int {
            try lookup()
            _ = connection.takeSorts()
            try lookup()
            return connection.takeSorts()
        }

        /// Fails unless the lookup costs about the same at 10 and at `large` rows of history.
        func expectFlat(
            large: Int = 3_000, grow: (Int) throws -> Void, lookup: () throws -> Void,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let small = try steps(afterGrowingTo: 10, from: 0, grow: grow, lookup: lookup)
            let big = try steps(afterGrowingTo: large, from: 10, grow: grow, lookup: lookup)
            #expect(small > 0, "the lookup ran no statement", sourceLocation: sourceLocation)
            // A B-tree a few levels deeper costs a handful of steps; a scan costs thousands.
            #expect(big <= small + small / 2 + 20, "\(small) steps at 10 rows, \(big) at \(large)", sourceLocation: sourceLocation)
        }
    }

    @Test("an Asleep upload's check for sessions due to close or complete reads neither other projects' open nights nor its own finished ones")
    func asleepDueSessions() throws {
        let fixture = try Fixture()
        try fixture.connection.run("INSERT INTO projects (id, name, created_at) VALUES ('p2', 'other', '2026-01-01T00:00:00Z')")
        let store = AsleepStore(connection: fixture.connection)
        let now = Date(timeIntervalSince1970: 1_800_000_000).timeIntervalSince1970
        try fixture.expectFlat(
            grow: { index in
                // Another project's nights in progress, and this project's finished ones.
                try fixture.connection.run(
                    """
                    INSERT INTO asleep_sessions (session_id, project_id, customer, user_id, state, start_time, created_at)
                    VALUES (?, 'p2', 'c', 'u', 'OPEN', ?, ?), (?, 'p1', 'c', 'u', 'COMPLETE', ?, ?)
                    """, "open\(index)", now - 60, now, "done\(index)", now - 86_400, now)
            },
            lookup: {
                let at = Date(timeIntervalSince1970: now)
                let past = try store.sessionsPastMaximum(project: "p1", maxSession: 43_200, now: at)
                let due = try store.sessionsDueToComplete(project: "p1", delay: 60, now: at)
                #expect(past.isEmpty && due.isEmpty)
            })
    }

    @Test("the due checks and a user's open nights read only those nights, not every night in progress")
    func asleepNightsInProgress() throws {
        let fixture = try Fixture()
        let store = AsleepStore(connection: fixture.connection)
        let now = Date(timeIntervalSince1970: 1_800_000_000).timeIntervalSince1970
        let (maxSession, delay) = (43_200.0, 60.0)
        // One night of each kind that is due, the earliest due 100 s ago.
        try fixture.connection.run(
            """
            INSERT INTO asleep_sessions (session_id, project_id, customer, user_id, state, start_time, created_at, closed_at, hold)
            VALUES ('long', 'p1', 'c', 'u', 'OPEN', ?, ?, NULL, 0), ('closed', 'p1', 'c', 'u', 'CLOSED', ?, ?, ?, 0),
                   ('mine', 'p1', 'c', 'v', 'OPEN', ?, ?, NULL, 0)
            """, now - maxSession - 100, now, now - 3_600, now, now - delay - 10, now - 30, now)
        try fixture.expectFlat(
            grow: { index in
                // A load test's devices, all tracking: nights just started, nights just closed, nights held back.
                try fixture.connection.run(
                    """
                    INSERT INTO asleep_sessions (session_id, project_id, customer, user_id, state, start_time, created_at, closed_at, hold)
                    VALUES (?, 'p1', 'c', 'u', 'OPEN', ?, ?, NULL, 0), (?, 'p1', 'c', 'u', 'CLOSED', ?, ?, ?, 0), (?, 'p1', 'c', 'u', 'CLOSED', ?, ?, ?, 1)
                    """, "open\(index)", now - 60, now, "closing\(index)", now - 3_600, now, now - 5, "held\(index)", now - 3_600, now, now - 3_000)
            },
            lookup: {
                let at = Date(timeIntervalSince1970: now)
                let past = try store.sessionsPastMaximum(project: "p1", maxSession: maxSession, now: at).map(\.id)
                let due = try store.sessionsDueToComplete(project: "p1", delay: delay, now: at).map(\.id)
                let anyDue = try store.hasDueTransitions(project: "p1", maxSession: maxSession, delay: delay, now: at)
                let next = try store.nextTransitionDue(project: "p1", maxSession: maxSession, delay: delay)
                // Starting a session first closes the user's open one: that is one user's nights.
                let usersOpen = try store.openSessions(project: "p1", user: "v").map(\.id)
                #expect(past == ["long"] && due == ["closed"] && anyDue && next == now - 100 && usersOpen == ["mine"])
            })
    }

    @Test("listing an Asleep session's chunks reads that session's rows in key order, not the project's other nights")
    func asleepSessionChunks() throws {
        let fixture = try Fixture()
        let store = AsleepStore(connection: fixture.connection)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for seq in [2, 0, 1] { _ = try store.insertChunk(project: "p1", session: "mine", seqNum: seq, size: 3, sha256: "h\(seq)", now: now) }
        try fixture.expectFlat(
            grow: { index in
                // The project's other nights, each a few chunks in.
                for seq in 0..<3 { _ = try store.insertChunk(project: "p1", session: "night\(index)", seqNum: seq, size: 3, sha256: "h", now: now) }
            },
            lookup: {
                let listed = try store.chunks(project: "p1", session: "mine").map(\.seqNum)
                #expect(listed == [0, 1, 2])
            })
    }

    @Test("a telemetry batch finds its user's open period, and processing its unprocessed ones, without reading other users' periods")
    func telematicsPeriods() throws {
        let fixture = try Fixture()
        let store = TelematicsStore(connection: fixture.connection)
        // User 1 started driving first; every other device of the load test has driven since.
        let mine = try store.insertPeriod("p1", userID: 1, vehicleID: nil, serviceCode: nil, atMs: 1_000)
        try fixture.expectFlat(
            grow: { index in
                _ = try store.insertPeriod("p1", userID: 100 + index, vehicleID: nil, serviceCode: nil, atMs: 2_000 + Int64(index))
            },
            lookup: {
                let open = try store.openPeriod("p1", userID: 1)?.id
                let unprocessed = try store.unprocessedPeriodIDs("p1", userID: 1)
                #expect(open == mine && unprocessed == [mine])
            })
    }

    @Test("a resolve on another domain finds the slug on any domain without reading every link")
    func linksBySlugAlone() throws {
        let fixture = try Fixture()
        let store = WarpLinkStore(connection: fixture.connection)
        try fixture.insertLink("wanted")
        try fixture.expectFlat(
            grow: { index in try fixture.insertLink("l\(index)", slug: "other\(index)") },
            lookup: {
                let found = try store.links("p1", slug: "wanted").map(\.id)
                #expect(found == ["wanted"])
            })
    }

    @Test("a page of the control plane's link list reads that page in creation order, not every link sorted")
    func linkPages() throws {
        let fixture = try Fixture()
        let store = WarpLinkStore(connection: fixture.connection)
        // The first links: two created in the same instant (the id breaks the tie), then a later one.
        try fixture.insertLink("b-first", created: "2026-01-01T00:00:00.000Z")
        try fixture.insertLink("a-first", created: "2026-01-01T00:00:00.000Z")
        try fixture.insertLink("c-second", created: "2026-01-01T00:00:01.000Z")
        // Links created later, many of them.
        try fixture.expectFlat(
            grow: { index in try fixture.insertLink("later-\(index)", created: "2027-01-01T00:00:00.000Z") },
            lookup: {
                let page = try store.links("p1", limit: 2, offset: 1).map(\.id)
                #expect(page == ["b-first", "c-second"])
            })
        #expect(try fixture.sorts { _ = try store.links("p1", limit: 2, offset: 1) } == 0)
    }

    @Test("a registration finds its caller's latest voucher lookup without reading other devices' lookups")
    func latestVoucherLookup() throws {
        let fixture = try Fixture()
        let store = WarrantyLifeStore(connection: fixture.connection)
        let action = VoucherAction.allCases[0]
        // This device looked the voucher up before its user signed in; other devices have since.
        try store.recordLookup("p1", code: "MINE", deviceID: "my-device", userID: nil, action: action, type: .normalRegistration, now: "2026-11-30T10:00:00Z")
        try fixture.expectFlat(
            grow: { index in
                try store.recordLookup(
                    "p1", code: "V\(index)", deviceID: "device-\(index)", userID: "user-\(index)", action: action,
                    type: .normalRegistration, now: "2026-11-30T10:00:01Z")
            },
            lookup: {
                let latest = try store.latestLookup("p1", userID: "me", deviceID: "my-device")
                #expect(latest?.code == "MINE")
            })
    }

    @Test("a voucher lookup and the warranty list read one item's or one user's warranties, and a registration its user's newest item, not the project's")
    func warrantiesAndItemsOfOne() throws {
        let fixture = try Fixture()
        let store = WarrantyLifeStore(connection: fixture.connection)
        func warranty(_ id: String, item: String, user: String, at time: String) throws {
            try fixture.connection.run(
                "INSERT INTO wl_warranties (project_id, id, item_id, user_id, document, created_at) VALUES ('p1', ?, ?, ?, '{}', ?)",
                id, item, user, time)
        }
        func item(_ id: String, user: String, at time: String) throws {
            try fixture.connection.run(
                "INSERT INTO wl_items (project_id, id, device_id, user_id, created_at, updated_at) VALUES ('p1', ?, ?, ?, ?, ?)",
                id, "device-" + id, user, time, time)
        }
        // My item's two warranties (the second one renewed), and my two items, the newer one second.
        try warranty("w-old", item: "mine", user: "me", at: "2026-01-01T00:00:00Z")
        try warranty("w-new", item: "mine", user: "me", at: "2026-06-01T00:00:00Z")
        try item("mine-old", user: "me", at: "2026-01-01T00:00:00Z")
        try item("mine", user: "me", at: "2026-06-01T00:00:00Z")
        // Other devices of other users registering since: their items and warranties.
        try fixture.expectFlat(
            grow: { index in
                try warranty("w\(index)", item: "item-\(index)", user: "user-\(index)", at: "2026-07-01T00:00:00Z")
                try item("item-\(index)", user: "user-\(index)", at: "2026-07-01T00:00:00Z")
            },
            lookup: {
                let ofItem = try store.warranties("p1", itemID: "mine"), ofUser = try store.warranties("p1", userID: "me")
                let newest = try store.newestItem("p1", userID: "me")
                #expect(ofItem.map(\.id) == ["w-old", "w-new"] && ofUser.map(\.id) == ["w-old", "w-new"] && newest?.id == "mine")
            })
        // Their indexes hold the rows in the order asked for: nothing is sorted.
        #expect(
            try fixture.sorts {
                _ = try store.warranties("p1", itemID: "mine")
                _ = try store.warranties("p1", userID: "me")
                _ = try store.newestItem("p1", userID: "me")
            } == 0)
    }

    @Test("an attribution match reads the project's apps in index order, without sorting them")
    func warpLinkAppsInOrder() throws {
        let fixture = try Fixture()
        let store = WarpLinkStore(connection: fixture.connection)
        for (id, time) in [("b-first", "2026-01-01T00:00:00Z"), ("a-second", "2026-02-01T00:00:00Z")] {
            try fixture.connection.run("INSERT INTO warplink_apps (project_id, id, name, handle, created_at) VALUES ('p1', ?, ?, ?, ?)", id, id, id, time)
        }
        var apps: [String] = []
        #expect(try fixture.sorts { apps = try store.apps("p1").map(\.id) } == 0)
        #expect(apps == ["b-first", "a-second"])
    }

    @Test("processing a period, a trip's manual events and a vehicle's kilometres read only that period's, trip's and vehicle's rows")
    func telematicsTripsAndVehicles() throws {
        let fixture = try Fixture()
        let store = TelematicsStore(connection: fixture.connection)
        func trip(_ id: Int, user: Int, vehicle: Int, period: Int) throws {
            try fixture.connection.run(
                """
                INSERT INTO telematics_trips (project_id, id, user_id, vehicle_id, period_id, started_ms, ended_ms, distance_km, duration_sec,
                    avg_speed_kmh, max_speed_kmh, score) VALUES ('p1', ?, ?, ?, ?, ?, ?, 10, 600, 60, 80, 90)
                """, id, user, vehicle, period, 1_000 * id, 1_000 * id + 600_000)
            try fixture.connection.run(
                """
                INSERT INTO telematics_manual_events (project_id, id, user_id, type, ts_ms, received_at, trip_id) VALUES ('p1', ?, ?, 'tripStart', ?, 0, ?)
                """, id, user, 1_000 * id, id)
            try fixture.connection.run(
                """
                INSERT INTO telematics_kilometer_reports (project_id, id, vehicle_id, kilometers, read_at, reported_at) VALUES ('p1', ?, ?, 100, ?, ?)
                """, id, vehicle, Double(id), Double(id))
        }
        try trip(1, user: 1, vehicle: 1, period: 1)
        // The other devices of a load test, with their own trips, vehicles and reports.
        try fixture.expectFlat(
            grow: { index in try trip(100 + index, user: 100 + index, vehicle: 100 + index, period: 100 + index) },
            lookup: {
                let events = try store.manualEvents("p1", tripID: 1).map(\.id)
                let reports = try store.latestReports("p1", vehicleID: 1, limit: 5).count
                let count = try store.reportCount("p1", vehicleID: 1)
                let tracked = try store.trackedKm("p1", vehicleID: 1, sinceMs: 0)
                // Reprocessing period 1 deletes its trip; the transaction puts it back for the next run.
                try fixture.connection.execute("SAVEPOINT reprocess")
                try store.deleteTrips("p1", periodID: 1)
                try fixture.connection.execute("ROLLBACK TO reprocess")
                try fixture.connection.execute("RELEASE reprocess")
                #expect(events == [1] && reports == 1 && count == 1 && tracked == 10)
            })
    }

    @Test("a repeated sensor event finds the first one without reading every repeat")
    func sensorEventDedupe() throws {
        let fixture = try Fixture()
        let store = WarrantyLifeStore(connection: fixture.connection)
        let eventAt = "2026-11-30 10:00:00.000"
        try fixture.expectFlat(
            grow: { index in
                _ = try store.insertSensorEvent("p1", id: "e\(index)", itemID: "item", eventAt: eventAt, type: 1111, body: [:], now: "2026-11-30T10:00:00Z")
            },
            lookup: {
                let first = try fixture.connection.transaction {
                    try store.insertSensorEvent("p1", id: UUID().uuidString, itemID: "item", eventAt: eventAt, type: 1111, body: [:], now: "2026-11-30T10:00:01Z")
                }
                #expect(first == "e0")
            })
    }

    @Test("a repeated diagnostic report and an item's latest opt-in are found through indexes")
    func diagnosticsAndOptIns() throws {
        let fixture = try Fixture()
        let store = WarrantyLifeStore(connection: fixture.connection)
        try fixture.expectFlat(
            grow: { index in
                try store.insertDiagnostic(
                    "p1", id: "d\(index)", itemID: "item", body: [:], requestHash: "same",
                    sameHashAs: index == 0 ? nil : "d0", now: "2026-11-30T10:00:00Z")
            },
            lookup: {
                let first = try store.firstDiagnostic("p1", itemID: "item", requestHash: "same")
                #expect(first == "d0")
            })
        try fixture.expectFlat(
            grow: { index in
                try store.recordOptIn("p1", itemID: "item-\(index % 50)", program: .ssr, optedIn: index % 2 == 0, sensorEventID: nil, now: "2026-11-30T10:00:00Z")
            },
            lookup: {
                let latest = try store.latestOptIn("p1", itemID: "item-0", program: .ssr)
                #expect(latest != nil)
            })
    }

    @Test("attribution candidates by device and fingerprint ignore resolve clicks and other devices")
    func attributionCandidates() throws {
        let fixture = try Fixture()
        let store = WarpLinkStore(connection: fixture.connection)
        func click(_ id: String, source: String, device: String, fingerprint: String, at time: Double) throws {
            try fixture.connection.run(
                """
                INSERT INTO warplink_clicks (project_id, id, link_id, source, device_id, fingerprint, clicked_at) VALUES ('p1', ?, 'l1', ?, ?, ?, ?)
                """, id, source, device, fingerprint, time)
        }
        try click("wanted", source: "redirect", device: "DEVICE-A", fingerprint: "fp-a", at: 1)
        // History: the SDK's own resolves of the same device and fingerprint, and other devices' taps.
        try fixture.expectFlat(
            grow: { index in
                try click("r\(index)", source: "resolve", device: "device-a", fingerprint: "fp-a", at: Double(index + 2))
                try click("o\(index)", source: "redirect", device: "device-\(index)", fingerprint: "fp-\(index)", at: Double(index + 2))
            },
            lookup: {
                let byDevice = try store.clicks("p1", deviceID: "device-a").map(\.id)
                let byFingerprint = try store.clicks("p1", fingerprint: "fp-a").map(\.id)
                #expect(byDevice == ["wanted"])
                #expect(byFingerprint == ["wanted"])
            })
    }

    @Test("the latest attributed install of a device is found without reading the others")
    func latestAttributedInstall() throws {
        let fixture = try Fixture()
        let store = WarpLinkStore(connection: fixture.connection)
        try fixture.expectFlat(
            grow: { index in
                try fixture.connection.run(
                    """
                    INSERT INTO warplink_installs (project_id, id, app_id, device_id, outcome, link_id, created_at) VALUES ('p1', ?, 'app', ?, 'matched', ?, ?)
                    """, "i\(index)", index % 3 == 0 ? "DEVICE-A" : "device-\(index)", index % 3 == 0 ? "l1" : nil, Double(index))
            },
            lookup: {
                let install = try store.latestAttributedInstall("p1", appID: "app", deviceID: "device-a")
                #expect(install != nil)
            })
    }

    @Test("every index on WarpLink's clicks and installs is read by one of its lookups or keeps a key unique")
    func warpLinkIndexesAreRead() throws {
        let fixture = try Fixture()
        let store = WarpLinkStore(connection: fixture.connection)
        // Every read of the two tables, from the SDK's routes and from the control plane.
        _ = try store.clicks("p1", deviceID: "device-a")
        _ = try store.clicks("p1", fingerprint: "fp-a")
        _ = try store.bucket("p1", "bucket")
        _ = try store.clicks("p1", linkID: "l1", source: .redirect, limit: 10)
        _ = try store.clicks("p1", linkID: nil, source: nil, limit: 10)
        _ = try store.install("p1", id: "i1")
        _ = try store.latestAttributedInstall("p1", appID: "app", deviceID: "device-a")
        _ = try store.installs("p1", limit: 10)
        try store.claim("p1", clickID: "c1", install: "i1", at: Date())
        var read: Set<String> = []
        for sql in fixture.connection.preparedSQL {
            let unbound = [any SQLBindable](repeating: SQLValue.null, count: sql.filter { $0 == "?" }.count)
            for step in try fixture.connection.query("EXPLAIN QUERY PLAN " + sql, bindings: unbound) {
                let detail = step.string("detail") ?? ""
                guard let range = detail.range(of: "INDEX ") else { continue }
                read.insert(String(detail[range.upperBound...].prefix { $0 != " " }))
            }
        }
        #expect(read.isSuperset(of: ["warplink_clicks_device_candidates", "warplink_clicks_fingerprint_candidates", "warplink_installs_device_linked"]))
        // An index nothing reads costs every insert an entry and a page in the log, for nothing.
        for table in ["warplink_clicks", "warplink_installs"] {
            let unread = try fixture.connection.query("SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 0 ORDER BY name", bindings: [table])
                .compactMap { $0.string("name") }.filter { !read.contains($0) }
            #expect(unread == [], "\(table): no lookup reads \(unread)")
        }
    }

    @Test("a manual event finds its trip and period without reading its user's earlier ones")
    func manualEventTripAndPeriod() throws {
        let fixture = try Fixture()
        let store = TelematicsStore(connection: fixture.connection)
        let day: Int64 = 86_400_000, now: Int64 = 4_000 * 86_400_000
        func period(_ id: Int, from start: Int64, lastSample: Int64, end: Int64?) throws {
            try fixture.connection.run(
                """
                INSERT INTO telematics_periods (project_id, id, user_id, started_ms, last_sample_ms, ended_ms) VALUES ('p1', ?, 1, ?, ?, ?)
                """, id, start, lastSample, end)
        }
        func trip(_ id: Int, period: Int, from start: Int64, to end: Int64) throws {
            try fixture.connection.run(
                """
                INSERT INTO telematics_trips (project_id, id, user_id, period_id, started_ms, ended_ms, distance_km, duration_sec,
                    avg_speed_kmh, max_speed_kmh, score) VALUES ('p1', ?, 1, ?, ?, ?, 10, 600, 60, 80, 90)
                """, id, period, start, end)
        }
        // Today: the open period of the drive in progress, and its first trip, ended ten minutes ago.
        try period(1_000_000, from: now - 3_600_000, lastSample: now - 60_000, end: nil)
        try trip(1_000_000, period: 1_000_000, from: now - 3_600_000, to: now - 600_000)
        var sent = 0
        func event(at time: Int64) throws -> (trip: Int?, period: Int?) {
            sent += 1
            let input = ManualEventInput(clientID: "event-\(sent)", type: .stopped, timeMs: time)
            let record = try store.insertManualEvent("p1", userID: 1, input, idleMs: 300_000, at: 0)
            return (record.tripID, record.periodID)
        }
        // The same user's earlier days, a closed period holding one trip each.
        try fixture.expectFlat(
            grow: { index in
                let start = Int64(index) * day
                try period(index + 1, from: start, lastSample: start + 3_600_000, end: start + 3_600_000)
                try trip(index + 1, period: index + 1, from: start, to: start + 3_000_000)
            },
            lookup: {
                let inTrip = try event(at: now - 1_200_000), afterTrip = try event(at: now - 300_000), idle = try event(at: now + 600_000)
                #expect(inTrip.trip == 1_000_000 && inTrip.period == 1_000_000)
                #expect(afterTrip.trip == nil && afterTrip.period == 1_000_000, "between trips, within the open period's idle time")
                #expect(idle.trip == nil && idle.period == nil, "past the open period's idle time")
            })
        // An event of an earlier day still finds that day's trip and period.
        let earlier = try event(at: 5 * day + 1_000)
        #expect(earlier.trip == 6 && earlier.period == 6)
    }

    // The control plane's lists, each with an optional filter: a test suite polls one user's trips,
    // one night's deliveries or one item's uploads while a load test adds everyone else's.

    @Test("the outbox of one platform reads that platform's messages, and of one kind as well through its index, in id order")
    func outboxOfOnePlatform() throws {
        let fixture = try Fixture()
        let mine = PlatformID("mine"), now = Date(timeIntervalSince1970: 1_800_000_000)
        func add(_ platform: PlatformID, _ kind: String) throws -> Int {
            try Outbox.add(fixture.connection, project: "p1", platform: platform, kind: kind, recipient: "r", subject: nil, payload: [:], now: now)
        }
        let first = try add(mine, "email"), push = try add(mine, "push"), second = try add(mine, "email")
        // Another platform's webhooks, one per night of a load test.
        try fixture.expectFlat(
            grow: { _ in _ = try add(PlatformID("other"), "webhook") },
            lookup: {
                let mails = try Outbox.list(fixture.connection, project: "p1", platform: mine, kind: "email").map(\.id)
                let all = try Outbox.list(fixture.connection, project: "p1", platform: mine).map(\.id)
                #expect(mails == [first, second] && all == [first, push, second])
            })
        // (project, platform, kind, id) holds one kind's messages in id order; a platform's kinds are sorted.
        #expect(try fixture.sorts { _ = try Outbox.list(fixture.connection, project: "p1", platform: mine, kind: "email") } == 0)
    }

    @Test("the control plane's telematics lists read one user's trips, periods, batches, tokens and events in index order, not every user's")
    func telematicsListsOfOneUser() throws {
        let fixture = try Fixture()
        let store = TelematicsStore(connection: fixture.connection)
        let db = fixture.connection
        func trip(_ id: Int, user: Int, at start: Int) throws {
            try db.run(
                """
                INSERT INTO telematics_trips (project_id, id, user_id, started_ms, ended_ms, distance_km, duration_sec, avg_speed_kmh, max_speed_kmh, score)
                VALUES ('p1', ?, ?, ?, ?, 10, 600, 60, 80, 90)
                """, id, user, start, start + 600_000)
        }
        func manualEvent(_ id: Int, user: Int, at time: Int) throws {
            try db.run("INSERT INTO telematics_manual_events (project_id, id, user_id, type, ts_ms, received_at) VALUES ('p1', ?, ?, 'tripStart', ?, 0)", id, user, time)
        }
        func batch(_ id: String, user: Int, at time: Double) throws {
            try db.run(
                """
                INSERT INTO telematics_batches (project_id, batch_id, user_id, sample_count, event_count, attention_event_count, received_at)
                VALUES ('p1', ?, ?, 0, 0, 0, ?)
                """, id, user, time)
        }
        func pair(_ id: String, user: Int, at time: Double) throws {
            try db.run(
                """
                INSERT INTO telematics_token_pairs (project_id, id, user_id, access_token, access_expires, access_ttl_seconds, created_at)
                VALUES ('p1', ?, ?, ?, 0, 3600, ?)
                """, id, user, "token-" + id, time)
        }
        func attention(_ id: String, user: Int, from start: Int, to end: Int) throws {
            try db.run(
                """
                INSERT INTO telematics_attention_events (project_id, id, user_id, type, start_ms, end_ms, confidence, detector_version, received_at)
                VALUES ('p1', ?, ?, 'phoneDistraction', ?, ?, 0.9, '1', 0)
                """, id, user, start, end)
        }
        // User 1's rows, two of each in the same instant so the tie-breaking column is read too.
        try trip(1, user: 1, at: 1_000); try trip(2, user: 1, at: 1_000); try trip(3, user: 1, at: 500)
        try manualEvent(2, user: 1, at: 1_000); try manualEvent(1, user: 1, at: 1_000); try manualEvent(3, user: 1, at: 500)
        try batch("b-z", user: 1, at: 10); try batch("b-a", user: 1, at: 10); try batch("b-early", user: 1, at: 5)
        try pair("t-z", user: 1, at: 10); try pair("t-a", user: 1, at: 10); try pair("t-early", user: 1, at: 5)
        let early = try store.insertPeriod("p1", userID: 1, vehicleID: nil, serviceCode: nil, atMs: 500)
        let firstLate = try store.insertPeriod("p1", userID: 1, vehicleID: nil, serviceCode: nil, atMs: 1_000)
        let secondLate = try store.insertPeriod("p1", userID: 1, vehicleID: nil, serviceCode: nil, atMs: 1_000)
        // A distraction during trip 1 (and 2, and 3: the least id is reported) and one outside any trip.
        try attention("ae-b", user: 1, from: 2_000, to: 3_000); try attention("ae-a", user: 1, from: 2_000, to: 3_000)
        try attention("ae-parked", user: 1, from: 10, to: 20)
        let lists = {
            (
                try store.allTrips("p1", userID: 1).map(\.id), try store.allManualEvents("p1", userID: 1).map(\.id),
                try store.batches("p1", userID: 1).map(\.batchID), try store.pairs("p1", userID: 1).map(\.id),
                try store.allPeriods("p1", userID: 1).map(\.id),
                try store.periods("p1", userID: 1, fromMs: 0, toMs: 10_000, processed: false, page: 1, pageSize: 2).periods.map(\.id),
                try store.attentionEventRecords("p1", userID: 1).map { "\($0.event.id):\($0.tripID.map(String.init) ?? "-")" }
            )
        }
        // Every other device of a load test, driving and uploading since.
        try fixture.expectFlat(
            grow: { index in
                let user = 100 + index
                try trip(100 + index, user: user, at: 5_000_000 + index); try manualEvent(100 + index, user: user, at: 5_000_000 + index)
                try batch("b\(index)", user: user, at: Double(100 + index)); try pair("t\(index)", user: user, at: Double(100 + index))
                _ = try store.insertPeriod("p1", userID: user, vehicleID: nil, serviceCode: nil, atMs: 5_000_000 + Int64(index))
                try attention("ae\(index)", user: user, from: 5_000_000 + index, to: 5_000_100 + index)
            },
            lookup: {
                let (trips, manualEvents, batches, pairs, periods, page, attention) = try lists()
                #expect(trips == [2, 1, 3] && manualEvents == [3, 1, 2] && batches == ["b-early", "b-z", "b-a"] && pairs == ["t-early", "t-z", "t-a"])
                #expect(periods == [secondLate, firstLate, early] && page == [secondLate, firstLate])
                #expect(attention == ["ae-parked:-", "ae-a:1", "ae-b:1"])
            })
        // Each list's index holds its user's rows in the order asked for.
        #expect(try fixture.sorts { _ = try lists() } == 0)
    }

    @Test("the control plane's session and delivery lists read one user's nights and one session's deliveries in index order")
    func asleepListsOfOne() throws {
        let fixture = try Fixture()
        let store = AsleepStore(connection: fixture.connection)
        func session(_ id: String, user: String, state: String, start: Double, created: Double) throws {
            try fixture.connection.run(
                """
                INSERT INTO asleep_sessions (session_id, project_id, customer, user_id, state, start_time, created_at) VALUES (?, 'p1', 'c', ?, ?, ?, ?)
                """, id, user, state, start, created)
        }
        func webhook(_ id: String, session: String, outbox: Int, at time: Double) throws {
            try fixture.connection.run(
                """
                INSERT INTO asleep_webhooks (id, project_id, outbox_id, session_id, event, url, user_id, body, next_attempt_at, created_at)
                VALUES (?, 'p1', ?, ?, 'SESSION_COMPLETE', 'https://example.com', 'me', '{}', 0, ?)
                """, id, outbox, session, time)
        }
        // My nights: two starting together (created first breaks the tie), one earlier and finished.
        try session("s-b", user: "me", state: "OPEN", start: 100, created: 101)
        try session("s-a", user: "me", state: "OPEN", start: 100, created: 102)
        try session("s-done", user: "me", state: "COMPLETE", start: 50, created: 51)
        // My night's deliveries: two in the same instant, in the order the outbox recorded them.
        try webhook("w-z", session: "s-done", outbox: 1, at: 60); try webhook("w-a", session: "s-done", outbox: 2, at: 60)
        try webhook("w-early", session: "s-done", outbox: 3, at: 55)
        let lists = {
            (
                try store.sessions(project: "p1", user: "me", state: nil).map(\.id), try store.sessions(project: "p1", user: "me", state: "OPEN").map(\.id),
                try store.sessions(project: "p1", user: "me").map(\.id), try store.webhooks(project: "p1", session: "s-done").map(\.id)
            )
        }
        // Other users' nights, each with a delivery.
        try fixture.expectFlat(
            grow: { index in
                try session("n\(index)", user: "user-\(index)", state: index % 2 == 0 ? "OPEN" : "COMPLETE", start: 200, created: 200)
                try webhook("d\(index)", session: "n\(index)", outbox: 10 + index, at: 200)
            },
            lookup: {
                let (nights, open, ofUser, deliveries) = try lists()
                #expect(nights == ["s-done", "s-b", "s-a"] && open == ["s-b", "s-a"] && ofUser == nights)
                #expect(deliveries == ["w-early", "w-z", "w-a"])
            })
        #expect(try fixture.sorts { _ = try lists() } == 0)
    }

    @Test("fetching an Asleep user finds their latest night without reading or sorting their earlier ones")
    func asleepLatestNight() throws {
        let fixture = try Fixture()
        let store = AsleepStore(connection: fixture.connection)
        func session(_ id: String, start: Double, created: Double) throws {
            try fixture.connection.run(
                """
                INSERT INTO asleep_sessions (session_id, project_id, customer, user_id, state, start_time, created_at) VALUES (?, 'p1', 'c', 'me', 'COMPLETE', ?, ?)
                """, id, start, created)
        }
        // The latest night is the last created; of two created together, the later start wins,
        // then the greater id.
        try session("latest-a", start: 900_000, created: 1_000_000)
        try session("latest-b", start: 900_000, created: 1_000_000)
        try session("early-start", start: 800_000, created: 1_000_000)
        // Thousands of the user's earlier nights, each created as it began.
        try fixture.expectFlat(
            grow: { index in
                try session("night-\(index)", start: Double(index) * 100, created: Double(index) * 100 + 60)
            },
            lookup: {
                let latest = try store.latestSession(project: "p1", user: "me")
                #expect(latest?.id == "latest-b")
            })
        #expect(try fixture.sorts { _ = try store.latestSession(project: "p1", user: "me") } == 0)
    }

    @Test("an Asleep session list of one month and a month's average stats read that month's nights, not the user's whole history")
    func asleepMonthOfNights() throws {
        let fixture = try Fixture()
        let store = AsleepStore(connection: fixture.connection)
        try store.insertUser(id: "me", project: "p1", customer: "c", metadata: .null, now: Date(timeIntervalSince1970: 0))
        let service = AsleepService(store: store, now: Date(timeIntervalSince1970: 1_800_000_000), realNow: Date(), configuration: .null) { _ in "id" }
        let caller = Caller(project: "p1", customer: "c", apiKey: "k", productBilling: false, productID: nil, settings: AsleepSettings())
        let presented = Presented(apiKey: "k", userID: "me", timezone: "Asia/Seoul")
        func night(_ id: String, start: Double) throws {
            try fixture.connection.run(
                """
                INSERT INTO asleep_sessions (session_id, project_id, customer, user_id, state, start_time, created_at, overrides)
                VALUES (?, 'p1', 'c', 'me', 'COMPLETE', ?, ?, '{"peculiarities":["NEVER_SLEPT"]}')
                """, id, start, start)
        }
        // Nights without chunks have no statistics; marked never slept, average stats list them.
        // March 2027 in Seoul (UTC+9); its first midnight is 15:00 UTC on 28 February. Two nights
        // fall on a different day in Seoul than in UTC, and all four lie inside the store's day of
        // slack, so each night's local day must decide.
        let march1 = 1_803_826_800.0
        try night("feb-28-local", start: march1 - 1_800) // 23:30 on 28 February
        try night("mar-01-local", start: march1 + 1_800) // 00:30 on 1 March (28 February in UTC)
        try night("mar-31-local", start: march1 + 30 * 86_400 + 84_600) // 23:30 on 31 March
        try night("apr-01-local", start: march1 + 31 * 86_400 + 1_800) // 00:30 on 1 April (31 March in UTC)
        let query: [(name: String, value: String)] = [("date_gte", "2027-03-01"), ("date_lte", "2027-03-31"), ("order_by", "ASC")]
        let month = [("start_date", "2027-03-01"), ("end_date", "2027-03-31"), ("timezone", "Asia/Seoul")].map { (name: $0.0, value: $0.1) }
        func listed() throws -> [String] {
            try service.listSessions(caller, presented: presented, query: query)["sleep_session_list"]?.arrayValue?.compactMap { $0["session_id"]?.stringValue } ?? []
        }
        // Years of earlier nights, one a day going back from February.
        try fixture.expectFlat(
            grow: { index in
                try night("old-\(index)", start: march1 - Double(index + 2) * 86_400)
            },
            lookup: {
                #expect(try listed() == ["mar-01-local", "mar-31-local"])
                let stats = try service.averageStats(caller, userID: "me", query: month, timezoneHeader: nil)
                let averaged = ["slept_sessions", "never_slept_sessions"].flatMap { stats[$0]?.arrayValue ?? [] }.compactMap { $0["id"]?.stringValue }
                #expect(averaged.sorted() == ["mar-01-local", "mar-31-local"])
            })
    }

    @Test("the inspection tables read one item's uploads, not the project's, and all but opt-ins in index order")
    func warrantyLifeInspectionOfOneItem() throws {
        let fixture = try Fixture()
        let store = WarrantyLifeStore(connection: fixture.connection)
        let db = fixture.connection
        func upload(_ suffix: String, item: String, at time: String) throws {
            try db.run("INSERT INTO wl_sensor_events (project_id, id, item_id, body, created_at) VALUES ('p1', ?, ?, '{}', ?)", "se-" + suffix, item, time)
            try db.run(
                """
                INSERT INTO wl_readings (project_id, item_id, sensor_event_id, count, gzipped, readings, created_at) VALUES ('p1', ?, ?, 0, 0, '[]', ?)
                """, item, "se-" + suffix, time)
            try db.run(
                """
                INSERT INTO wl_audio_clips (project_id, item_id, sensor_event_id, bytes, sha256, data, created_at) VALUES ('p1', ?, ?, 0, 'h', x'', ?)
                """, item, "se-" + suffix, time)
            try db.run(
                "INSERT INTO wl_diagnostics (project_id, id, item_id, body, request_hash, created_at) VALUES ('p1', ?, ?, '{}', 'h', ?)",
                "d-" + suffix, item, time)
            try db.run(
                """
                INSERT INTO wl_images (project_id, item_id, diagnostic_id, kind, content_type, bytes, sha256, data, created_at)
                VALUES ('p1', ?, ?, 'photo', 'image/jpeg', 0, 'h', x'', ?)
                """, item, "d-" + suffix, time)
            try db.run("INSERT INTO wl_fcm_tokens (project_id, item_id, token, source, created_at) VALUES ('p1', ?, 'token', 'sdk', ?)", item, time)
            try db.run(
                "INSERT INTO wl_opt_ins (project_id, item_id, program, opted_in, created_at) VALUES ('p1', ?, ?, 1, ?)",
                item, suffix == "a" ? "ssr" : "other", time)
        }
        // My item's uploads: the second one first stamped later, the third in the same instant as it.
        try upload("a", item: "mine", at: "2026-01-01T00:00:02Z")
        try upload("b", item: "mine", at: "2026-01-01T00:00:01Z")
        try upload("c", item: "mine", at: "2026-01-01T00:00:02Z")
        let tables = InspectionTable.allCases.filter(\.hasItems)
        func ids(_ table: InspectionTable) throws -> [JSONValue] { try store.inspect(table, "p1", itemID: "mine").map { $0.members["id"] ?? .null } }
        // Other devices uploading since.
        try fixture.expectFlat(
            grow: { index in try upload("\(index)", item: "item-\(index)", at: "2026-01-01T00:00:03Z") },
            lookup: {
                for table in tables {
                    let found = try ids(table)
                    switch table {
                    case .sensorEvents: #expect(found == ["se-b", "se-a", "se-c"])
                    case .diagnostics: #expect(found == ["d-b", "d-a", "d-c"])
                    default: #expect(found == ["1", "2", "3"], "\(table)")
                    }
                }
            })
        // Opt-ins are indexed by (item, program, id) for the latest opt-in of a program: an item's few are sorted.
        #expect(try fixture.sorts { for table in tables where table != .optIns { _ = try ids(table) } } == 0)
    }
}
