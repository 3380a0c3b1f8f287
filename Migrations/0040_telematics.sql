-- Sentilant Telematics emulation (issue #7). Every table is per project; ids the SDK sees are
-- numbered per project (composite keys), so a seeded test sees vehicle 1, trip 1, … on every run.

-- Tunables, catalogues and service-code mode as one JSON document per project.
CREATE TABLE telematics_settings (
    project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    settings TEXT NOT NULL
);

CREATE TABLE telematics_users (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    user_name TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'ACTIVE' CHECK (state IN ('ACTIVE', 'INACTIVE', 'DENIED')),
    current_vehicle_id INTEGER,
    -- Comma-separated features switched off for this user (TRIPS, KILOMETERS, ATTENTION) → 403 ACCESS_DENIED.
    disabled_features TEXT NOT NULL DEFAULT '',
    access_ttl_seconds REAL,
    refresh_ttl_seconds REAL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, user_id)
);

-- One row per minted or rotated token pair. Refresh rotation links a pair to its successor.
CREATE TABLE telematics_token_pairs (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    access_token TEXT NOT NULL,
    access_expires REAL NOT NULL,
    access_revoked_at REAL,
    refresh_token TEXT,
    refresh_expires REAL,
    refresh_revoked_at REAL,
    access_ttl_seconds REAL NOT NULL,
    refresh_ttl_seconds REAL,
    parent_id TEXT,
    successor_id TEXT,
    rotated_at REAL,
    created_at REAL NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE UNIQUE INDEX telematics_access_token ON telematics_token_pairs (access_token);
CREATE UNIQUE INDEX telematics_refresh_token ON telematics_token_pairs (refresh_token);

CREATE TABLE telematics_vehicles (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id INTEGER NOT NULL,
    plate TEXT NOT NULL,
    plate_key TEXT NOT NULL,
    internal_plate TEXT,
    type INTEGER NOT NULL,
    fuel_type INTEGER NOT NULL,
    add_reason INTEGER,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, id),
    UNIQUE (project_id, plate_key)
);

CREATE TABLE telematics_kilometer_reports (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id INTEGER NOT NULL,
    vehicle_id INTEGER NOT NULL,
    user_id INTEGER,
    kilometers REAL NOT NULL,
    observations TEXT,
    read_at REAL NOT NULL,
    reported_at REAL NOT NULL,
    corrected INTEGER NOT NULL DEFAULT 0,
    corrected_at REAL,
    PRIMARY KEY (project_id, id)
);

CREATE TABLE telematics_batches (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    batch_id TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    declared_user_id INTEGER,
    vehicle_id INTEGER,
    service_code TEXT,
    device_id TEXT,
    sample_count INTEGER NOT NULL,
    event_count INTEGER NOT NULL,
    attention_event_count INTEGER NOT NULL,
    received_at REAL NOT NULL,
    repeat_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, batch_id)
);

-- Implicit rowid only (no INTEGER PRIMARY KEY), so snapshot copies never collide.
CREATE TABLE telematics_samples (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    ts_ms INTEGER NOT NULL,
    latitude REAL NOT NULL,
    longitude REAL NOT NULL,
    speed_kmh REAL,
    course_deg REAL,
    accuracy_m REAL,
    altitude_m REAL,
    speed_limit_kmh REAL,
    phone_in_use INTEGER,
    batch_id TEXT,
    UNIQUE (project_id, user_id, ts_ms)
);

CREATE TABLE telematics_periods (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    vehicle_id INTEGER,
    service_code TEXT,
    started_ms INTEGER NOT NULL,
    last_sample_ms INTEGER NOT NULL,
    ended_ms INTEGER,
    is_processed INTEGER NOT NULL DEFAULT 0,
    processed_at REAL,
    sample_count INTEGER NOT NULL DEFAULT 0,
    trip_count INTEGER NOT NULL DEFAULT 0,
    distance_km REAL NOT NULL DEFAULT 0,
    attention_event_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX telematics_periods_user ON telematics_periods (project_id, user_id, started_ms);

CREATE TABLE telematics_trips (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    vehicle_id INTEGER,
    period_id INTEGER,
    started_ms INTEGER NOT NULL,
    ended_ms INTEGER NOT NULL,
    distance_km REAL NOT NULL,
    duration_sec INTEGER NOT NULL,
    start_lat REAL, start_lon REAL, end_lat REAL, end_lon REAL,
    avg_speed_kmh REAL NOT NULL,
    max_speed_kmh REAL NOT NULL,
    score INTEGER NOT NULL,
    hard_braking_count INTEGER NOT NULL DEFAULT 0,
    abrupt_acceleration_count INTEGER NOT NULL DEFAULT 0,
    hard_cornering_count INTEGER NOT NULL DEFAULT 0,
    speeding_count INTEGER NOT NULL DEFAULT 0,
    sample_speeding_count INTEGER NOT NULL DEFAULT 0,
    speeding_duration_sec INTEGER NOT NULL DEFAULT 0,
    distraction_count INTEGER NOT NULL DEFAULT 0,
    distraction_duration_sec INTEGER NOT NULL DEFAULT 0,
    manual_event_count INTEGER NOT NULL DEFAULT 0,
    night_distance_km REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX telematics_trips_user ON telematics_trips (project_id, user_id, started_ms);

-- Driving events reported by the SDK in telemetry batches or seeded through the control plane.
CREATE TABLE telematics_driving_events (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    type TEXT NOT NULL,
    ts_ms INTEGER NOT NULL,
    latitude REAL,
    longitude REAL,
    duration_sec REAL,
    value REAL,
    batch_id TEXT,
    PRIMARY KEY (project_id, id)
);

CREATE TABLE telematics_attention_events (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    type TEXT NOT NULL,
    start_ms INTEGER NOT NULL,
    end_ms INTEGER NOT NULL,
    confidence REAL NOT NULL,
    average_speed_mps REAL,
    latitude REAL,
    longitude REAL,
    horizontal_accuracy_m REAL,
    location_timestamp_ms INTEGER,
    detector_version TEXT NOT NULL,
    received_at REAL NOT NULL,
    duplicate_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, id)
);

CREATE TABLE telematics_manual_events (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id INTEGER NOT NULL,
    client_event_id TEXT,
    user_id INTEGER NOT NULL,
    type TEXT NOT NULL,
    ts_ms INTEGER NOT NULL,
    received_at REAL NOT NULL,
    latitude REAL,
    longitude REAL,
    horizontal_accuracy_m REAL,
    location_timestamp_ms INTEGER,
    vehicle_id INTEGER,
    trip_id INTEGER,
    period_id INTEGER,
    PRIMARY KEY (project_id, id),
    UNIQUE (project_id, client_event_id)
);

-- Trip tallies and details look events up by user and time.
CREATE INDEX telematics_driving_events_user ON telematics_driving_events (project_id, user_id, ts_ms);
CREATE INDEX telematics_attention_events_user ON telematics_attention_events (project_id, user_id, start_ms);
CREATE INDEX telematics_manual_events_user ON telematics_manual_events (project_id, user_id, ts_ms);
