import Foundation
import PackagePlugin

/// Turns the files in a target's `Assets/` folder into one Swift source of string literals, so
/// the dashboard is compiled into the binary without `.embedInCode`'s slow byte-array literals.
@main
struct DashboardAssetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SwiftSourceModuleTarget else { return [] }
        let assets = module.directoryURL.appending(path: "Assets")
        let names = try FileManager.default.contentsOfDirectory(atPath: assets.path(percentEncoded: false))
            .filter { !$0.hasPrefix(".") }.sorted()
        let output = context.pluginWorkDirectoryURL.appending(path: "DashboardAssetFiles.swift")
        return [
            .buildCommand(
                displayName: "Compiling dashboard assets",
                executable: try context.tool(named: "DashboardAssetCompiler").url,
                arguments: [output.path(percentEncoded: false)] + names.map { assets.appending(path: $0).path(percentEncoded: false) },
                inputFiles: names.map { assets.appending(path: $0) },
                outputFiles: [output])
        ]
    }
}
