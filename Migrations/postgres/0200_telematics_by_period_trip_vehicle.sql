-- PostgreSQL variant of Migrations/0200_telematics_by_period_trip_vehicle.sql: the same indexes, so
-- that processing a period and a vehicle's kilometre reports read only that period's, trip's and
-- vehicle's rows.
CREATE INDEX telematics_trips_period ON telematics_trips (project_id, period_id);
CREATE INDEX telematics_trips_vehicle ON telematics_trips (project_id, vehicle_id, started_ms);
CREATE INDEX telematics_manual_events_trip ON telematics_manual_events (project_id, trip_id) WHERE trip_id IS NOT NULL;
CREATE INDEX telematics_kilometer_reports_vehicle ON telematics_kilometer_reports (project_id, vehicle_id, read_at);
