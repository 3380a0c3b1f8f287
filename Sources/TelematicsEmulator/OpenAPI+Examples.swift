import EmulatorCore
import Foundation

/// Examples for the Telematics document, by operationId: real answers and bodies of a project
/// (the demo project's fixtures, and a fresh project driven through every route), arrays cut to
/// one element. Kept as JSON text, so the compiler does not type-check hundreds of nested literals.
enum TelematicsExamples {
    /// The example of an operation's JSON success, by operationId.
    static func response(_ operation: String) -> JSONValue? { responses[operation].flatMap { try? JSONValue.parse(Data($0.utf8)) } }

    /// The example of an operation's JSON body, by operationId.
    static func body(_ operation: String) -> JSONValue? { bodies[operation].flatMap { try? JSONValue.parse(Data($0.utf8)) } }

    private static let responses: [String: String] = [
        "correctKilometers":
            #"{"correctionCount":1,"kilometers":15290,"reports":[{"corrected":true,"correctedAt":"2026-11-03T12:00:00.000000Z","id":2,"kilometers":15290,"observations":"Monthly reading","readAt":"2026-11-03T12:00:00.000000Z","reportedAt":"2026-11-03T12:00:00.000000Z","vehicleId":2}],"vehicleId":2}"#,
        "createTelematicsUser":
            #"{"accessTtlSeconds":null,"createdAt":"2026-11-03T12:00:00.000000Z","currentVehicleId":null,"disabledFeatures":[],"refreshTtlSeconds":null,"state":"ACTIVE","userId":1001,"userName":"Ana Silva"}"#,
        "expireTelematicsToken":
            #"{"accessState":"expired","createdAt":"2026-11-03T12:00:00.000000Z","id":"tp_trwfzz4fs26u","parentId":null,"refreshState":"active","refreshToken":"tmr_mx0jk09sfe_E2PW72ULrNa3aG6kjez2lBrKspwbPwSPp1hwPMsU","refreshTokenExpires":"2026-12-03T12:00:00.000000Z","rotatedAt":null,"successorId":null,"token":"tma_mx0jk09sfe_k8pHM5FIn4L3hnHOom1QsNtEAF9s7hxd","tokenExpires":"2026-11-03T12:00:00.000000Z","userId":1002}"#,
        "getActivityMetricsSummary": #"{"activities":[{"activity":"driving","count":4,"distanceKm":58.023,"durationSec":6120}],"from":null,"to":null}"#,
        "getAddReasonsCatalogue": #"{"New vehicle":1,"Rental":4,"Replacement":2,"Temporary":3}"#,
        "getAddVehicleReasons": #"{"New vehicle":1,"Rental":4,"Replacement":2,"Temporary":3}"#,
        "getCurrentUserInfo": #"{"active":true,"id":1001,"name":"Ana Silva","userId":1001,"userName":"Ana Silva"}"#,
        "getCurrentVehicleInfo":
            #"{"addReason":1,"addReasonName":"New vehicle","createdAt":"2026-12-01T13:23:39.573349Z","fuelType":1,"fuelTypeName":"Diesel","id":1,"internalPlate":"FLEET-001","lastReportedAt":"2026-11-26T13:23:39.573349Z","lastReportedKilometers":15230,"plate":"AA-00-AA","type":1,"typeName":"Car"}"#,
        "getEstimatedMileage":
            #"{"estimatedAt":"2026-12-01T13:27:52.297314Z","estimatedKilometers":15288.023,"lastReportedAt":"2026-11-26T13:23:39.573349Z","lastReportedKilometers":15230,"trackedKilometersSinceReport":58.023,"vehicleId":1}"#,
        "getFuelTypes": #"{"Diesel":1,"Electric":3,"Gasoline":2,"Hybrid":4,"LPG":5}"#,
        "getFuelTypesCatalogue": #"{"Diesel":1,"Electric":3,"Gasoline":2,"Hybrid":4,"LPG":5}"#,
        "getMetricsSummary":
            #"{"abruptAccelerationCount":0,"avgSpeedKmh":34.131,"distanceKm":58.023,"distractionCount":0,"distractionDurationSec":0,"durationSec":6120,"from":null,"hardBrakingCount":1,"hardCorneringCount":0,"maxSpeedKmh":58.017,"nightDrivingDistanceKm":5.563,"score":99,"speedingDurationSec":0,"to":null,"tripCount":4}"#,
        "getServiceCodes": #"{"codes":[],"mode":"open"}"#,
        "getTelematicsPeriod":
            #"{"attentionEventCount":1,"distanceKm":4.403,"endedAt":"2026-11-03T11:04:57.000000Z","id":1,"isProcessed":true,"processedAt":"2026-11-03T12:00:00.000000Z","sampleCount":100,"serviceCode":null,"startedAt":"2026-11-03T11:00:00.000000Z","tripCount":1,"vehicleId":2}"#,
        "getTelematicsPeriods":
            #"{"hasNext":false,"items":[{"attentionEventCount":0,"distanceKm":5.563,"endedAt":"2026-11-30T23:15:00.000000Z","id":4,"isProcessed":true,"processedAt":"2026-12-01T13:23:39.573349Z","sampleCount":181,"serviceCode":null,"startedAt":"2026-11-30T23:00:00.000000Z","tripCount":1,"vehicleId":1}],"page":1,"pageSize":20,"totalItems":4,"totalPages":1}"#,
        "getTelematicsSettings":
            #"{"addReasons":{"New vehicle":1,"Rental":4,"Replacement":2,"Temporary":3},"autoProcess":true,"defaultAccessTtlSeconds":3600,"defaultRefreshTtlSeconds":2592000,"fuelTypes":{"Diesel":1,"Electric":3,"Gasoline":2,"Hybrid":4,"LPG":5},"highSpeedKmh":50,"maxBatchBytes":10485760,"minTripDistanceKm":0.3,"minTripDurationSeconds":60,"periodIdleTimeoutSeconds":600,"rotationGraceSeconds":60,"serviceCodes":null,"tripGapSeconds":300,"vehicleTypes":{"Car":1,"Motorcycle":3,"Truck":4,"Van":2}}"#,
        "getTelematicsUser":
            #"{"accessTtlSeconds":null,"createdAt":"2026-11-03T12:00:00.000000Z","currentVehicleId":null,"disabledFeatures":[],"refreshTtlSeconds":null,"state":"ACTIVE","userId":1001,"userName":"Ana Silva"}"#,
        "getTripById":
            #"{"abruptAccelerationCount":0,"attentionEvents":[{"averageSpeedMps":null,"confidence":0.7,"detectorVersion":"unknown","endDate":"2026-11-03T11:00:42.000000Z","endTimestampMs":1793703642000,"horizontalAccuracyM":null,"id":"a1b2c3d4-0000-4000-8000-000000000001","latitude":40.2,"locationTimestampMs":null,"longitude":-8.4,"startDate":"2026-11-03T11:00:30.000000Z","startTimestampMs":1793703630000,"type":"phoneDistraction"}],"avgSpeedKmh":53.374,"distanceKm":4.403,"distractionCount":1,"distractionDurationSec":12,"durationSec":297,"endLocation":{"address":null,"latitude":40.2396,"longitude":-8.4},"endedAt":"2026-11-03T11:04:57.000000Z","events":[{"durationSec":null,"latitude":null,"longitude":null,"source":"detected","timestamp":"2026-11-03T11:02:30.000000Z","timestampMs":1793703750000,"type":"hardCornering","value":null}],"hardBrakingCount":0,"hardCorneringCount":1,"id":1,"manualEventCount":1,"maxSpeedKmh":54,"periodId":1,"samples":[],"score":90,"speedingCount":0,"speedingDurationSec":0,"startLocation":{"address":null,"latitude":40.2,"longitude":-8.4},"startedAt":"2026-11-03T11:00:00.000000Z","vehicleId":2}"#,
        "getTripsList":
            #"[{"abruptAccelerationCount":0,"avgSpeedKmh":22.251,"distanceKm":5.563,"distractionCount":0,"distractionDurationSec":0,"durationSec":900,"endLocation":{"address":null,"latitude":40.17,"longitude":-8.8},"endedAt":"2026-11-30T23:15:00.000000Z","hardBrakingCount":0,"hardCorneringCount":0,"id":4,"manualEventCount":0,"maxSpeedKmh":22.254,"periodId":4,"score":100,"speedingCount":0,"speedingDurationSec":0,"startLocation":{"address":null,"latitude":40.15,"longitude":-8.86},"startedAt":"2026-11-30T23:00:00.000000Z","vehicleId":1}]"#,
        "getVehicleTypes": #"{"Car":1,"Motorcycle":3,"Truck":4,"Van":2}"#,
        "getVehicleTypesCatalogue": #"{"Car":1,"Motorcycle":3,"Truck":4,"Van":2}"#,
        "insertManualEvent":
            #"{"clientEventId":"7a1d4c52-2b9e-4a51-9d2c-1f1d5a0c2b11","id":1,"latitude":null,"longitude":null,"periodId":1,"receivedAt":"2026-11-03T12:00:00.000000Z","timestamp":"2026-11-03T11:03:00.000000Z","tripId":null,"type":"distraction","vehicleId":2}"#,
        "inspectTrip":
            #"{"abruptAccelerationCount":0,"attentionEvents":[{"averageSpeedMps":null,"confidence":0.7,"detectorVersion":"unknown","endDate":"2026-11-03T11:00:42.000000Z","endTimestampMs":1793703642000,"horizontalAccuracyM":null,"id":"a1b2c3d4-0000-4000-8000-000000000001","latitude":40.2,"locationTimestampMs":null,"longitude":-8.4,"startDate":"2026-11-03T11:00:30.000000Z","startTimestampMs":1793703630000,"type":"phoneDistraction"}],"avgSpeedKmh":53.374,"distanceKm":4.403,"distractionCount":1,"distractionDurationSec":12,"durationSec":297,"endLocation":{"address":null,"latitude":40.2396,"longitude":-8.4},"endedAt":"2026-11-03T11:04:57.000000Z","events":[{"durationSec":null,"latitude":null,"longitude":null,"source":"detected","timestamp":"2026-11-03T11:02:30.000000Z","timestampMs":1793703750000,"type":"hardCornering","value":null}],"hardBrakingCount":0,"hardCorneringCount":1,"id":1,"manualEventCount":1,"maxSpeedKmh":54,"periodId":1,"samples":[{"altitudeM":null,"courseDeg":0,"horizontalAccuracyM":5,"latitude":40.2,"longitude":-8.4,"phoneInUse":false,"speedKmh":54,"speedLimitKmh":null,"timestamp":"2026-11-03T11:00:00.000000Z","timestampMs":1793703600000}],"score":90,"speedingCount":0,"speedingDurationSec":0,"startLocation":{"address":null,"latitude":40.2,"longitude":-8.4},"startedAt":"2026-11-03T11:00:00.000000Z","userId":1001,"vehicleId":2}"#,
        "listAttentionEvents":
            #"{"events":[{"averageSpeedMps":null,"confidence":0.7,"detectorVersion":"unknown","duplicateCount":0,"endDate":"2026-11-03T11:00:42.000000Z","endTimestampMs":1793703642000,"horizontalAccuracyM":null,"id":"a1b2c3d4-0000-4000-8000-000000000001","latitude":40.2,"locationTimestampMs":null,"longitude":-8.4,"receivedAt":"2026-11-03T12:00:00.000000Z","startDate":"2026-11-03T11:00:30.000000Z","startTimestampMs":1793703630000,"tripId":1,"type":"phoneDistraction","userId":1001}]}"#,
        "listBatches":
            #"{"batches":[{"accepted":100,"attentionEventCount":0,"batchId":"6f1d4c52-2b9e-4a51-9d2c-1f1d5a0c2b11","declaredUserId":null,"deviceId":null,"eventCount":1,"receivedAt":"2026-11-03T12:00:00.000000Z","repeatCount":0,"serviceCode":null,"userId":1001,"userMismatch":false,"vehicleId":2}]}"#,
        "listKilometers":
            #"{"reports":[{"corrected":false,"correctedAt":null,"id":1,"kilometers":15230,"observations":"Odometer photo","readAt":"2026-11-01T08:00:00.000000Z","reportedAt":"2026-11-03T12:00:00.000000Z","vehicleId":1}]}"#,
        "listManualEvents":
            #"{"events":[{"clientEventId":"7a1d4c52-2b9e-4a51-9d2c-1f1d5a0c2b11","id":1,"latitude":null,"longitude":null,"periodId":1,"receivedAt":"2026-11-03T12:00:00.000000Z","timestamp":"2026-11-03T11:03:00.000000Z","tripId":1,"type":"distraction","userId":1001,"vehicleId":2}]}"#,
        "listPeriods":
            #"{"periods":[{"attentionEventCount":0,"distanceKm":5.563,"endedAt":"2026-11-30T23:15:00.000000Z","id":4,"isProcessed":true,"processedAt":"2026-12-01T13:23:39.573349Z","sampleCount":181,"serviceCode":null,"startedAt":"2026-11-30T23:00:00.000000Z","tripCount":1,"userId":1001,"vehicleId":1}]}"#,
        "listTelematicsTokens":
            #"{"tokens":[{"accessState":"active","createdAt":"2026-11-03T12:00:00.000000Z","id":"tp_9dkdvedceq4w","parentId":null,"refreshState":"active","refreshToken":"tmr_mx0jk09sfe_WGuPn9jK3f2GHt71RW6wKo6igL7wPozR4qXlmqy7","refreshTokenExpires":"2026-12-03T12:00:00.000000Z","rotatedAt":null,"successorId":null,"token":"tma_mx0jk09sfe_JEVz9Q6hL4krPBCWFledno74c1enqzKN","tokenExpires":"2026-11-03T13:00:00.000000Z","userId":1001}]}"#,
        "listTelematicsUsers":
            #"{"users":[{"accessTtlSeconds":null,"createdAt":"2026-12-01T13:23:39.573349Z","currentVehicleId":1,"disabledFeatures":[],"refreshTtlSeconds":null,"state":"ACTIVE","userId":1001,"userName":"Ana Silva"}]}"#,
        "listTrips":
            #"{"trips":[{"abruptAccelerationCount":0,"avgSpeedKmh":22.251,"distanceKm":5.563,"distractionCount":0,"distractionDurationSec":0,"durationSec":900,"endLocation":{"address":null,"latitude":40.17,"longitude":-8.8},"endedAt":"2026-11-30T23:15:00.000000Z","hardBrakingCount":0,"hardCorneringCount":0,"id":4,"manualEventCount":0,"maxSpeedKmh":22.254,"periodId":4,"score":100,"speedingCount":0,"speedingDurationSec":0,"startLocation":{"address":null,"latitude":40.15,"longitude":-8.86},"startedAt":"2026-11-30T23:00:00.000000Z","userId":1001,"vehicleId":1}]}"#,
        "listVehicles":
            #"{"vehicles":[{"addReason":1,"addReasonName":"New vehicle","createdAt":"2026-12-01T13:23:39.573349Z","fuelType":1,"fuelTypeName":"Diesel","id":1,"internalPlate":"FLEET-001","lastReportedAt":"2026-11-26T13:23:39.573349Z","lastReportedKilometers":15230,"plate":"AA-00-AA","type":1,"typeName":"Car"}]}"#,
        "mintTelematicsToken":
            #"{"refreshToken":"tmr_mx0jk09sfe_WGuPn9jK3f2GHt71RW6wKo6igL7wPozR4qXlmqy7","refreshTokenExpires":"2026-12-03T12:00:00.000000Z","token":"tma_mx0jk09sfe_JEVz9Q6hL4krPBCWFledno74c1enqzKN","tokenExpires":"2026-11-03T13:00:00.000000Z"}"#,
        "patchTelematicsSettings":
            #"{"addReasons":{"New vehicle":1,"Rental":4,"Replacement":2,"Temporary":3},"autoProcess":true,"defaultAccessTtlSeconds":3600,"defaultRefreshTtlSeconds":2592000,"fuelTypes":{"Diesel":1,"Electric":3,"Gasoline":2,"Hybrid":4,"LPG":5},"highSpeedKmh":50,"maxBatchBytes":10485760,"minTripDistanceKm":0.3,"minTripDurationSeconds":60,"periodIdleTimeoutSeconds":600,"rotationGraceSeconds":30,"serviceCodes":null,"tripGapSeconds":300,"vehicleTypes":{"Car":1,"Motorcycle":3,"Truck":4,"Van":2}}"#,
        "patchTelematicsUser":
            #"{"accessTtlSeconds":null,"createdAt":"2026-11-03T12:00:00.000000Z","currentVehicleId":null,"disabledFeatures":[],"refreshTtlSeconds":null,"state":"ACTIVE","userId":1001,"userName":"Ana Silva"}"#,
        "processUserNow": #"{"periodsProcessed":1,"tripsCreated":1}"#,
        "refreshToken":
            #"{"accessToken":"tma_mx0jk09sfe_wjNmaJA3hCl8ia6Yz4cJAXJGaXQ0JUxn","accessTokenExpiresAt":"2026-11-03T13:00:00.000000Z","expiresIn":3600,"refreshToken":"tmr_mx0jk09sfe_aE03OZrSxF7Oy9Jpq7wnWgePnAyDiKsfp3hlVr1a","refreshTokenExpires":"2026-12-03T12:00:00.000000Z","refreshTokenExpiresAt":"2026-12-03T12:00:00.000000Z","token":"tma_mx0jk09sfe_wjNmaJA3hCl8ia6Yz4cJAXJGaXQ0JUxn","tokenExpires":"2026-11-03T13:00:00.000000Z","tokenType":"Bearer"}"#,
        "replaceAddReasonsCatalogue": #"{"New vehicle":1,"Replacement":2}"#,
        "replaceFuelTypesCatalogue": #"{"Diesel":1,"Electric":3,"Gasoline":2}"#,
        "replaceServiceCodes": #"{"codes":[{"code":"FLEET01","features":["TRIPS"],"serviceName":"Fleet"}],"mode":"allowList"}"#,
        "replaceVehicleTypesCatalogue": #"{"Car":1,"Motorcycle":3,"Truck":4,"Van":2}"#,
        "reportKilometers":
            #"{"corrected":false,"correctedAt":null,"id":2,"kilometers":15300,"observations":"Monthly reading","readAt":"2026-11-03T12:00:00.000000Z","reportedAt":"2026-11-03T12:00:00.000000Z","vehicleId":2}"#,
        "revokeTelematicsToken":
            #"{"accessState":"revoked","createdAt":"2026-11-03T12:00:00.000000Z","id":"tp_trwfzz4fs26u","parentId":null,"refreshState":"active","refreshToken":"tmr_mx0jk09sfe_E2PW72ULrNa3aG6kjez2lBrKspwbPwSPp1hwPMsU","refreshTokenExpires":"2026-12-03T12:00:00.000000Z","rotatedAt":null,"successorId":null,"token":"tma_mx0jk09sfe_k8pHM5FIn4L3hnHOom1QsNtEAF9s7hxd","tokenExpires":"2026-11-03T12:00:00.000000Z","userId":1002}"#,
        "seedKilometers":
            #"{"corrected":false,"correctedAt":null,"id":1,"kilometers":15230,"observations":"Odometer photo","readAt":"2026-11-01T08:00:00.000000Z","reportedAt":"2026-11-03T12:00:00.000000Z","vehicleId":1}"#,
        "seedPeriods":
            #"{"periods":[{"attentionEventCount":0,"distanceKm":0,"endedAt":null,"id":3,"isProcessed":false,"processedAt":null,"sampleCount":0,"serviceCode":null,"startedAt":"2026-10-02T08:00:00.000000Z","tripCount":0,"vehicleId":null}]}"#,
        "seedTrip":
            #"{"abruptAccelerationCount":0,"avgSpeedKmh":40,"distanceKm":20,"distractionCount":0,"distractionDurationSec":0,"durationSec":1800,"endLocation":null,"endedAt":"2026-10-01T08:30:00.000000Z","hardBrakingCount":0,"hardCorneringCount":0,"id":2,"manualEventCount":0,"maxSpeedKmh":40,"periodId":2,"score":100,"speedingCount":0,"speedingDurationSec":0,"startLocation":null,"startedAt":"2026-10-01T08:00:00.000000Z","vehicleId":null}"#,
        "seedVehicle":
            #"{"addReason":1,"addReasonName":"New vehicle","createdAt":"2026-11-03T12:00:00.000000Z","fuelType":1,"fuelTypeName":"Diesel","id":1,"internalPlate":"FLEET-001","lastReportedAt":null,"lastReportedKilometers":null,"plate":"AA-00-AA","type":1,"typeName":"Car"}"#,
        "setVehicle":
            #"{"addReason":1,"addReasonName":"New vehicle","createdAt":"2026-11-03T12:00:00.000000Z","fuelType":2,"fuelTypeName":"Gasoline","id":2,"internalPlate":"FLEET-002","lastReportedAt":null,"lastReportedKilometers":null,"plate":"BB-11-BB","type":1,"typeName":"Car"}"#,
        "uploadAttentionEvents": #"{"accepted":1,"duplicates":0}"#,
        "uploadTelemetry": #"{"accepted":100,"batchId":"6f1d4c52-2b9e-4a51-9d2c-1f1d5a0c2b11","receivedAt":"2026-11-03T12:00:00.000000Z"}"#,
        "validateServiceCode": #"{"code":"DEMO0001","features":["TRIPS"],"serviceName":"Understudy open mode","valid":true}"#,
    ]

    private static let bodies: [String: String] = [
        "correctKilometers": #"{"kilometers":15290,"correctionCount":1}"#,
        "createTelematicsUser": #"{"userId":1001,"userName":"Ana Silva"}"#,
        "expireTelematicsToken": #"{"token":"tma_mx0jk09sfe_k8pHM5FIn4L3hnHOom1QsNtEAF9s7hxd"}"#,
        "insertManualEvent": #"{"id":"7a1d4c52-2b9e-4a51-9d2c-1f1d5a0c2b11","type":"distraction","timestamp":"2026-11-03T11:03:00Z"}"#,
        "logout": #"{"refreshToken":"tmr_…"}"#,
        "mintTelematicsToken": #"{"userId":1001,"userName":"Ana Silva","accessTtlSeconds":3600}"#,
        "patchTelematicsSettings": #"{"rotationGraceSeconds":30}"#,
        "patchTelematicsUser": #"{"userName":"Ana Silva","state":"ACTIVE"}"#,
        "refreshToken": #"{"refreshToken":"tmr_mx0jk09sfe_WGuPn9jK3f2GHt71RW6wKo6igL7wPozR4qXlmqy7"}"#,
        "replaceAddReasonsCatalogue": #"{"New vehicle":1,"Replacement":2}"#,
        "replaceFuelTypesCatalogue": #"{"Diesel":1,"Gasoline":2,"Electric":3}"#,
        "replaceServiceCodes": #"{"mode":"allowList","codes":[{"code":"FLEET01","serviceName":"Fleet","features":["TRIPS","KILOMETERS"]}]}"#,
        "replaceVehicleTypesCatalogue": #"{"Car":1,"Van":2,"Motorcycle":3,"Truck":4}"#,
        "reportKilometers": #"{"kilometers":15300,"observations":"Monthly reading"}"#,
        "revokeTelematicsToken": #"{"token":"tma_mx0jk09sfe_k8pHM5FIn4L3hnHOom1QsNtEAF9s7hxd"}"#,
        "seedKilometers": #"{"kilometers":15230,"observations":"Odometer photo","readAt":"2026-11-01T08:00:00Z"}"#,
        "seedPeriods": #"{"userId":1001,"startedAt":"2026-10-02T08:00:00Z","endedAt":null,"count":1}"#,
        "seedTrip": #"{"userId":1001,"startedAt":"2026-10-01T08:00:00Z","endedAt":"2026-10-01T08:30:00Z","distanceKm":20}"#,
        "seedVehicle": #"{"plate":"AA-00-AA","internalPlate":"FLEET-001","type":1,"fuelType":1,"addReason":1,"currentForUserId":1001}"#,
        "setVehicle": #"{"plate":"BB-11-BB","internalPlate":"FLEET-002","type":1,"fuelType":2,"addReason":1}"#,
        "uploadAttentionEvents":
            #"{"events":[{"id":"a1b2c3d4-0000-4000-8000-000000000001","type":"phoneDistraction","startTimestampMs":1793703630000,"endTimestampMs":1793703642000,"confidence":0.7,"latitude":40.2,"longitude":-8.4}]}"#,
        "uploadTelemetry":
            #"{"batchId":"6f1d4c52-2b9e-4a51-9d2c-1f1d5a0c2b11","samples":[{"timestampMs":1793703600000,"latitude":40.2,"longitude":-8.4,"speedMps":15,"courseDeg":0,"horizontalAccuracyM":5,"screenLocked":true,"handsFree":false},{"timestampMs":1793703603000,"latitude":40.2004,"longitude":-8.4,"speedMps":15,"courseDeg":0,"horizontalAccuracyM":5,"screenLocked":true,"handsFree":false}],"events":[{"type":"hardCornering","timestampMs":1793703750000}]}"#,
    ]
}
