import EmulatorCore
import Foundation
import HTTPServer

// Warranty routes (§5.7, D-WL-20) and surveys, offers, feedback and configuration content
// (§5.3, §5.11, §5.12).
extension WarrantyLifeRoutes {
    /// The `WLWarrantyRequest` of `body`: every field's type and format checked before any lookup,
    /// so bad input is a 400 whatever else is wrong.
    func warrantyInput(_ request: Request) throws -> WarrantyInput {
        let body = try WireBody.object(request)
        var input = WarrantyInput()
        for name in ["firstName", "lastName", "company", "streetAddress", "city", "zip", "phone"] {
            if let value = try body.string(name) { input.text.append((name, value)) }
        }
        input.voucherCode = try body.string("voucherCode")
        input.itemID = try body.string("itemId")
        input.deviceID = try body.string("deviceId")
        input.imei = try body.string("imei")
        _ = try body.string("diagnosticId")
        input.country = try body.int("country")
        input.state = try body.int("state")
        input.rewardAmount = try body.double("rewardAmount")
        for name in ["acceptedMarketing", "isDeviceInsured"] {
            if let value = try body.bool(name) { input.flags.append((name, value)) }
        }
        for program in SmartSaverProgram.allCases {
            if let value = try body.bool(program.bodyKey) { input.smartSaver.append((program, value)) }
        }
        if let date = try body.string("dateOfPurchase") {
            guard WarrantyLifeService.parseDate(date) != nil else { throw WarrantyLifeError.validation("Field `dateOfPurchase` must be a date `yyyy-MM-dd` or ISO 8601.") }
            input.dateOfPurchase = date
        }
        return input
    }

    /// `GET /warranties`: the caller's warranties.
    func listWarranties(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let user = context.caller.user, now = context.now
        let warranties = try await context.read { service in try service.warranties(of: user) }
        return ok(.array(warranties.map { $0.warranty.wire(now: now, item: $0.item) }))
    }

    /// `GET /warranties/{id}`.
    func getWarranty(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let user = context.caller.user, id = context.parameter("id")
        let found = try await context.read { service in try service.warranty(id: id, user: user) }
        return ok(found.warranty.wire(now: context.now, item: found.item))
    }

    /// `POST /warranties`: 201; the voucher becomes claimed by the caller and bound to the device.
    func createWarranty(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let input = try warrantyInput(request), user = context.caller.user
        let created = try await context.write { service in try service.createWarranty(input, user: user) }
        return ok(created.warranty.wire(now: context.now, item: created.item), status: 201)
    }

    /// `PUT /warranties/{id}`: merge; a caller on another device who looked the voucher up takes the warranty over (transfer).
    func updateWarranty(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let input = try warrantyInput(request), user = context.caller.user, id = context.parameter("id")
        let updated = try await context.write { service in try service.updateWarranty(id: id, input, user: user) }
        return ok(updated.warranty.wire(now: context.now, item: updated.item))
    }

    /// `PATCH /warranties/{id}` (`updateWarrantyById`): merge, `rewardAmount` within 0…`rewardAmountMax`.
    func patchWarranty(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let input = try warrantyInput(request), user = context.caller.user, id = context.parameter("id")
        let patched = try await context.write { service in try service.patchWarranty(id: id, input, user: user) }
        return ok(patched.warranty.wire(now: context.now, item: patched.item))
    }

    // MARK: Content

    /// Content served as is (`/app-config`, `/sensor-tests`): its encoded envelope is reused while
    /// the database has not changed (the document parsed and encoded again was most of the route,
    /// see `DerivedAnswers`).
    func content<Account>(_ request: Request, _ context: RequestContext<WarrantyLifeCaller<Account>>, name: String) async throws -> Response {
        let asOf = context.database.localChangeCount // before the read
        let key = "warrantylife.content\u{1F}\(context.caller.project)\u{1F}\(name)\u{1F}\(settings.bareEnvelope)"
        return .json(
            status: 200,
            bytes: try await context.services.derivedAnswers.answer(for: key, asOf: asOf) {
                ok(try await context.read { service in try service.content(name) }).body
            })
    }

    /// `POST /surveys` (D-WL-13): `surveyVersion` and `answers` in either form → 201 `{id}`.
    func postSurvey(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let body = try WireBody.object(request)
        guard try body.int("surveyVersion") != nil else { throw WarrantyLifeError.validation("Field `surveyVersion` is required.") }
        _ = try body.string("diagnosticId")
        guard let answers = body.fields["answers"]?.arrayValue else { throw WarrantyLifeError.validation("Field `answers` must be an array.") }
        for (index, answer) in answers.enumerated() {
            guard let members = answer.objectValue, !members.isEmpty else { throw WarrantyLifeError.validation("Answer \(index) must be an object.") }
            if members["questionId"] != nil {
                guard members["questionId"].flatMap(WireBody.wholeNumber) != nil, members["optionId"].flatMap(WireBody.wholeNumber) != nil else {
                    throw WarrantyLifeError.validation("Answer \(index) needs integer `questionId` and `optionId`.")
                }
            } else {
                guard members.count == 1, members.values.first.flatMap(WireBody.wholeNumber) != nil else {
                    throw WarrantyLifeError.validation("Answer \(index) must be {\"<questionId>\": optionId} or {questionId, optionId}.")
                }
            }
        }
        return try await submit(context, kind: "survey", body: body.json)
    }

    /// `POST /feedback` (D-WL-24): any JSON object.
    func feedback(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        try await submit(context, kind: "feedback", body: try WireBody.object(request).json)
    }

    /// Stores a submission → 201 `{id}`.
    private func submit(_ context: RequestContext<UserCaller>, kind: String, body: JSONValue) async throws -> Response {
        let drawn = newID(context), userID = context.caller.user.id
        let id = try await context.write { service in
            let id = try unusedID(drawn, in: .submissions, service, context)
            try service.submit(kind: kind, body: body, id: id, userID: userID)
            return id
        }
        return ok(["id": .string(id)], status: 201)
    }

    /// `GET /surveys?surveyVersion=`: the questions of that version (default: the highest).
    func survey(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let version = try WireQuery(request).int("surveyVersion")
        return ok(try await context.read { service in try service.survey(version: version) })
    }

    /// Raw HTML, not enveloped (D-WL-14); `{{query}}` in the seeded page becomes the escaped query values.
    func offersHTML(_ request: Request, _ context: RequestContext<UserCaller>, name: String) async throws -> Response {
        let page = try await context.read { service in try service.content(name) }.stringValue ?? ""
        let echoed = request.queryItems.filter { !$0.value.isEmpty }.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        let escaped = echoed.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        return Response(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data(page.replacingOccurrences(of: "{{query}}", with: escaped).utf8))
    }

    /// `GET /offers?country=&state=`: JSON offers, filtered by `country`/`state` when an offer names them.
    func offers(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let query = WireQuery(request)
        let country = query.string("country"), state = query.string("state")
        return ok(.array(try await context.read { service in try service.offers(country: country, state: state) }))
    }

    /// `GET /diagnostic-config?model=`: the model's requirements, else the `*` default, else 404.
    func diagnosticConfig(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let model = try WireQuery(request).requiredString("model")
        let requirements = try await context.read { service in try service.diagnosticRequirements(model: model) }
        return ok(["model": .string(model), "diagnosticRequirements": requirements])
    }
}
