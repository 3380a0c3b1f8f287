import HTTPServer

/// Cross-origin headers for the control plane's public documents.
enum CORS {
    /// `response` readable from any origin.
    static func allowingAnyOrigin(_ response: Response) -> Response {
        var response = response
        response.headers.set("Access-Control-Allow-Origin", "*")
        return response
    }

    /// The answer to a CORS preflight (`OPTIONS`) for a public document.
    static func preflight() -> Response {
        var response = Response(status: 204)
        response.headers.set("Access-Control-Allow-Origin", "*")
        response.headers.set("Access-Control-Allow-Methods", "GET, OPTIONS")
        response.headers.set("Access-Control-Allow-Headers", "*")
        response.headers.set("Access-Control-Max-Age", "600")
        return response
    }
}
