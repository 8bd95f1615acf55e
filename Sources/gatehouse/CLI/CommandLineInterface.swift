import GatehouseIO
import Glibc
import GatehouseConfig
import GatehouseCore

/// Parses the command line and runs the subcommand.
enum CommandLineInterface {
    static let version = GatehouseVersion.current

    static let usage = """
    usage: gatehouse [run] [--config PATH]
           gatehouse check [--config PATH] [--online]
           gatehouse demo [--port N] [--config PATH]
           gatehouse token --secret S --sub U [--ttl 1h] [--aud A] [--iss I] [--claim k=v]...
           gatehouse sdk swift [--config PATH] --schema SCHEMA.graphql --out DIR [--package Name]
                     [--scalar GraphQLName=SwiftType]...
                                  a Swift client package for the operations the gateway holds
           gatehouse version
    """

    static func run(_ arguments: [String]) -> Int32 {
        var rest = arguments
        let command = rest.first.map { $0.hasPrefix("-") ? "run" : $0 } ?? "run"
        if let first = rest.first, !first.hasPrefix("-") { rest.removeFirst() }
        do {
            switch command {
            case "run":
                let options = try Options.parse(rest, valued: ["--config"])
                return Serve.run(configPath: configPath(options))
            case "check":
                let options = try Options.parse(rest, valued: ["--config"], flags: ["--online"])
                return Check.run(configPath: configPath(options), online: options.has("--online"))
            case "demo":
                let options = try Options.parse(rest, valued: ["--port", "--config"])
                var port: Int?
                if let text = options.value("--port") {
                    guard let number = Int(text), (1...65535).contains(number) else {
                        throw UsageError("--port takes a port number")
                    }
                    port = number
                }
                return Demo.run(port: port, configPath: options.value("--config") ?? Demo.defaultConfigPath)
            case "token":
                let options = try Options.parse(rest, valued: ["--secret", "--sub", "--ttl", "--aud", "--iss", "--claim"])
                return try Token.run(options)
            case "sdk":
                return try SDK.run(rest)
            case "version", "--version":
                print("gatehouse \(version)")
                return 0
            case "help", "--help", "-h":
                print(usage)
                return 0
            default:
                throw UsageError("unknown command \"\(command)\"")
            }
        } catch let error as UsageError {
            FileSystem.writeStandardError("gatehouse: \(error.message)\n\(usage)\n")
            return 2
        } catch {
            FileSystem.writeStandardError("gatehouse: \(error)\n")
            return 1
        }
    }

    /// --config (README, "Command line and signals"), then $GATEHOUSE_CONFIG, then config/gatehouse.yaml.
    static func configPath(_ options: Options) -> String {
        options.value("--config") ?? FileSystem.environment["GATEHOUSE_CONFIG"] ?? "config/gatehouse.yaml"
    }
}

struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// `--name value` options; some may repeat.
struct Options {
    private var values: [(String, String)] = []

    static func parse(_ arguments: [String], valued: Set<String>, flags: Set<String> = []) throws -> Options {
        var options = Options()
        var index = 0
        while index < arguments.count {
            var name = arguments[index]
            var value: String?
            if let equals = name.firstIndex(of: "="), name.hasPrefix("--") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flags.contains(name), value == nil {
                options.values.append((name, ""))
                index += 1
                continue
            }
            guard valued.contains(name) else { throw UsageError("unknown option \(name)") }
            if value == nil {
                index += 1
                guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                value = arguments[index]
            }
            options.values.append((name, value!))
            index += 1
        }
        return options
    }

    func has(_ name: String) -> Bool { values.contains { $0.0 == name } }
    func value(_ name: String) -> String? { values.last { $0.0 == name }?.1 }
    func all(_ name: String) -> [String] { values.filter { $0.0 == name }.map(\.1) }
}
