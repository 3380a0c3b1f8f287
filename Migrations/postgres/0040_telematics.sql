-- PostgreSQL variant of Migrations/0040_telematics.sql: the same tables, columns, keys, indexes and defaults in
-- PostgreSQL types (INTEGER → BIGINT, REAL → DOUBLE PRECISION, BLOB → BYTEA, AUTOINCREMENT → identity).
-- Sentilant Telematics emulation (issue #7). Every table is per project; ids the SDK sees are
-- numbered per project (composite keys), so a seeded test sees vehicle 1, trip 1, … on every run.

-- Tunables, catalogues and service-code mode as one JSON document per project.
CREATE TABLE telematics_settings (
    project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    settings TEXT NOT NULL
);

CREATE TABLE telematics_users (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    user_name TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'ACTIVE' CHECK (state IN ('ACTIVE', 'INACTIVE', 'DENIED')),
    current_vehicle_id BIGINT,
    -- Comma-separated features switched off for this user (TRIPS, KILOMETERS, ATTENTION) → 403 ACCESS_DENIED.
    disabled_features TEXT NOT NULL DEFAULT '',
    access_ttl_seconds DOUBLE PRECISION,
    refresh_ttl_seconds DOUBLE PRECISION,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, user_id)
);

-- One row per minted or rotated token pair. Refresh rotation links a pair to its successor.
CREATE TABLE telematics_token_pairs (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    access_token TEXT NOT NULL,
    access_expires DOUBLE PRECISION NOT NULL,
    access_revoked_at DOUBLE PRECISION,
    refresh_token TEXT,
    refresh_expires DOUBLE PRECISION,
    refresh_revoked_at DOUBLE PRECISION,
    access_ttl_seconds DOUBLE PRECISION NOT NULL,
    refresh_ttl_seconds DOUBLE PRECISION,
    parent_id TEXT,
    successor_id TEXT,
    rotated_at DOUBLE PRECISION,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE UNIQUE INDEX telematics_access_token ON telematics_token_pairs (access_token);
CREATE UNIQUE INDEX telematics_refresh_token ON telematics_token_pairs (refresh_token);

CREATE TABLE telematics_vehicles (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    plate TEXT NOT NULL,
    plate_key TEXT NOT NULL,
    internal_plate TEXT,
    type BIGINT NOT NULL,
    fuel_type BIGINT NOT NULL,
    add_reason BIGINT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, id),
    UNIQUE (project_id, plate_key)
);

CREATE TABLE telematics_kilometer_reports (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    vehicle_id BIGINT NOT NULL,
    user_id BIGINT,
    kilometers DOUBLE PRECISION NOT NULL,
    observations TEXT,
    read_at DOUBLE PRECISION NOT NULL,
    reported_at DOUBLE PRECISION NOT NULL,
    corrected BIGINT NOT NULL DEFAULT 0,
    corrected_at DOUBLE PRECISION,
    PRIMARY KEY (project_id, id)
);

CREATE TABLE telematics_batches (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    batch_id TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    declared_user_id BIGINT,
    vehicle_id BIGINT,
    service_code TEXT,
    device_id TEXT,
    sample_count BIGINT NOT NULL,
    event_count BIGINT NOT NULL,
    attention_event_count BIGINT NOT NULL,
    received_at DOUBLE PRECISION NOT NULL,
    repeat_count BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, batch_id)
);

-- No primary key (SQLite keeps only its implicit rowid here), so snapshot copies never collide.
-- PostgreSQL has no rowid: a store that orders by it needs a hand-written variant.
CREATE TABLE telematics_samples (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    ts_ms BIGINT NOT NULL,
    latitude DOUBLE PRECISION NOT NULL,
    longitude DOUBLE PRECISION NOT NULL,
    speed_kmh DOUBLE PRECISION,
    course_deg DOUBLE PRECISION,
    accuracy_m DOUBLE PRECISION,
    altitude_m DOUBLE PRECISION,
    speed_limit_kmh DOUBLE PRECISION,
    phone_in_use BIGINT,
    batch_id TEXT,
    UNIQUE (project_id, user_id, ts_ms)
);

CREATE TABLE telematics_periods (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    vehicle_id BIGINT,
    service_code TEXT,
    started_ms BIGINT NOT NULL,
    last_sample_ms BIGINT NOT NULL,
    ended_ms BIGINT,
    is_processed BIGINT NOT NULL DEFAULT 0,
    processed_at DOUBLE PRECISION,
    sample_count BIGINT NOT NULL DEFAULT 0,
    trip_count BIGINT NOT NULL DEFAULT 0,
    distance_km DOUBLE PRECISION NOT NULL DEFAULT 0,
    attention_event_count BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX telematics_periods_user ON telematics_periods (project_id, user_id, started_ms);

CREATE TABLE telematics_trips (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    vehicle_id BIGINT,
    period_id BIGINT,
    started_ms BIGINT NOT NULL,
    ended_ms BIGINT NOT NULL,
    distance_km DOUBLE PRECISION NOT NULL,
    duration_sec BIGINT NOT NULL,
    start_lat DOUBLE PRECISION, start_lon DOUBLE PRECISION, end_lat DOUBLE PRECISION, end_lon DOUBLE PRECISION,
    avg_speed_kmh DOUBLE PRECISION NOT NULL,
    max_speed_kmh DOUBLE PRECISION NOT NULL,
    score BIGINT NOT NULL,
    hard_braking_count BIGINT NOT NULL DEFAULT 0,
    abrupt_acceleration_count BIGINT NOT NULL DEFAULT 0,
    hard_cornering_count BIGINT NOT NULL DEFAULT 0,
    speeding_count BIGINT NOT NULL DEFAULT 0,
    sample_speeding_count BIGINT NOT NULL DEFAULT 0,
    speeding_duration_sec BIGINT NOT NULL DEFAULT 0,
    distraction_count BIGINT NOT NULL DEFAULT 0,
    distraction_duration_sec BIGINT NOT NULL DEFAULT 0,
    manual_event_count BIGINT NOT NULL DEFAULT 0,
    night_distance_km DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX telematics_trips_user ON telematics_trips (project_id, user_id, started_ms);

-- Driving events reported by the SDK in telemetry batches or seeded through the control plane.
CREATE TABLE telematics_driving_events (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    type TEXT NOT NULL,
    ts_ms BIGINT NOT NULL,
    latitude DOUBLE PRECISION,
    longitude DOUBLE PRECISION,
    duration_sec DOUBLE PRECISION,
    value DOUBLE PRECISION,
    batch_id TEXT,
    PRIMARY KEY (project_id, id)
);

CREATE TABLE telematics_attention_events (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    type TEXT NOT NULL,
    start_ms BIGINT NOT NULL,
    end_ms BIGINT NOT NULL,
    confidence DOUBLE PRECISION NOT NULL,
    average_speed_mps DOUBLE PRECISION,
    latitude DOUBLE PRECISION,
    longitude DOUBLE PRECISION,
    horizontal_accuracy_m DOUBLE PRECISION,
    location_timestamp_ms BIGINT,
    detector_version TEXT NOT NULL,
    received_at DOUBLE PRECISION NOT NULL,
    duplicate_count BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, id)
);

CREATE TABLE telematics_manual_events (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id BIGINT NOT NULL,
    client_event_id TEXT,
    user_id BIGINT NOT NULL,
    type TEXT NOT NULL,
    ts_ms BIGINT NOT NULL,
    received_at DOUBLE PRECISION NOT NULL,
    latitude DOUBLE PRECISION,
    longitude DOUBLE PRECISION,
    horizontal_accuracy_m DOUBLE PRECISION,
    location_timestamp_ms BIGINT,
    vehicle_id BIGINT,
    trip_id BIGINT,
    period_id BIGINT,
    PRIMARY KEY (project_id, id),
    UNIQUE (project_id, client_event_id)
);

-- Trip tallies and details look events up by user and time.
CREATE INDEX telematics_driving_events_user ON telematics_driving_events (project_id, user_id, ts_ms);
CREATE INDEX telematics_attention_events_user ON telematics_attention_events (project_id, user_id, start_ms);
CREATE INDEX telematics_manual_events_user ON telematics_manual_events (project_id, user_id, ts_ms);
