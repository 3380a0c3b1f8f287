-- Processing a period first deletes the trips built from it and unlinks their manual events;
-- linking manual events to a trip counts the trip's; kilometre reports read a vehicle's reports
-- and the distance of its trips. The trips and manual events were indexed by user and time only,
-- the reports not beyond their key, so each of these read every trip, manual event or report of
-- the project: processing grew with every other device's driving.
CREATE INDEX telematics_trips_period ON telematics_trips (project_id, period_id);
CREATE INDEX telematics_trips_vehicle ON telematics_trips (project_id, vehicle_id, started_ms);
CREATE INDEX telematics_manual_events_trip ON telematics_manual_events (project_id, trip_id) WHERE trip_id IS NOT NULL;
CREATE INDEX telematics_kilometer_reports_vehicle ON telematics_kilometer_reports (project_id, vehicle_id, read_at);
