import Foundation

/// Surveys, feedback, offers and the test catalogue.
extension WarrantyLifeRepository {
    /// Sends the user's survey answers (`postSurvey(body:)`).
    public func postSurvey(body: [String: AnyJSON]) async throws(UnderstudyClientError) -> AnyJSON { try data(try await request("POST", "/surveys", json: .object(body)), 201) }
    /// The questions of survey `version`.
    public func getSurvey(version: Int) async throws(UnderstudyClientError) -> AnyJSON {
        try data(try await request("GET", "/surveys", query: [("surveyVersion", String(version))]), 200)
    }
    /// Sends the user's feedback (`postFeedback(model:)`).
    public func postFeedback(model: [String: AnyJSON]) async throws(UnderstudyClientError) -> AnyJSON {
        try data(try await request("POST", "/feedback", json: .object(model)), 201)
    }
    /// The registration offers page for a location, as the HTML the SDK shows (`fetchOffers(country:state:zip:city:)`).
    public func fetchOffers(country: String, state: String, zip: String, city: String) async throws(UnderstudyClientError) -> String {
        let response = try await request("GET", "/offers/registration", query: [("simplify", ""), ("city", city), ("country", country), ("state", state), ("zip", zip)])
        try response.expect(200)
        return response.text
    }
    /// The offers available in a country and state, as JSON.
    public func getOffers(country: String? = nil, state: String? = nil) async throws(UnderstudyClientError) -> AnyJSON {
        var query: [(String, String)] = []
        if let country { query.append(("country", country)) }
        if let state { query.append(("state", state)) }
        return try data(try await request("GET", "/offers", query: query), 200)
    }
    /// The sensor tests the host should run before registering.
    public func getSensorTests() async throws(UnderstudyClientError) -> AnyJSON { try data(try await request("GET", "/sensor-tests"), 200) }
    /// Diagnostic configuration of a model.
    public func getDiagnosticConfig(model: String) async throws(UnderstudyClientError) -> AnyJSON {
        try data(try await request("GET", "/diagnostic-config", query: [("model", model)]), 200)
    }
}
