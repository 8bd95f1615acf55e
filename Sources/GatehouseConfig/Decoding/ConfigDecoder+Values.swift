/// Readers for values with their own syntax.
extension ConfigDecoder {
    // MARK: - Durations and sizes

    /// A duration such as `10s`; zero only when `allowZero` (leeway, drain) since a zero timeout
    /// would fail every request.
    func duration(_ node: YAMLNode, _ path: String, allowZero: Bool) -> Duration? {
        guard let value = parsed(node, path, expected: "a duration such as 10s", DurationSyntax.parse) else {
            return nil
        }
        guard allowZero || value > .zero else {
            report(path, "must be greater than 0", at: node.mark)
            return nil
        }
        return value
    }

    func positiveDuration(_ node: YAMLNode, _ path: String) -> Duration? {
        duration(node, path, allowZero: false)
    }

    func anyDuration(_ node: YAMLNode, _ path: String) -> Duration? {
        duration(node, path, allowZero: true)
    }

    /// A byte size such as `16KiB`, at least `minimum`.
    func size(_ node: YAMLNode, _ path: String, minimum: Int) -> Int? {
        guard let value = parsed(node, path, expected: "a size such as 16KiB", SizeSyntax.parse) else { return nil }
        guard value >= minimum else {
            report(path, "must be at least \(minimum) bytes", at: node.mark)
            return nil
        }
        return value
    }

    // MARK: - Addresses

    func hostPort(_ node: YAMLNode, _ path: String) -> HostPort? {
        parsed(node, path, expected: "host:port", HostPortSyntax.parse)
    }

    func cidr(_ node: YAMLNode, _ path: String) -> CIDR? {
        parsed(node, path, expected: "a CIDR such as 10.0.0.0/8", CIDRSyntax.parse)
    }

    func upstreamURL(_ node: YAMLNode, _ path: String) -> UpstreamURL? {
        parsed(node, path, expected: "an http:// or https:// URL", UpstreamURLSyntax.parse)
    }

    // MARK: - Names and files

    /// A name other parts of the config refer to (upstreams, auth providers). Kept to characters
    /// that read unambiguously in key paths, logs and metric labels.
    func checkName(_ name: String, _ path: String, at mark: YAMLMark) -> Bool {
        let isValid = !name.isEmpty && name.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z"))
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
        if !isValid {
            report(path, "a name may use only letters, digits, \"-\", \"_\" and \".\"", at: mark)
        }
        return isValid
    }

    /// A path to a regular file this process can read.
    func readableFile(_ node: YAMLNode, _ path: String) -> String? {
        guard let file = nonEmptyString(node, path) else { return nil }
        if let problem = files.readableFileProblem(file) {
            report(path, problem.message, at: node.mark)
            return nil
        }
        return file
    }

    /// A path to a directory this process can list.
    func readableDirectory(_ node: YAMLNode, _ path: String) -> String? {
        guard let directory = nonEmptyString(node, path) else { return nil }
        if let problem = files.readableDirectoryProblem(directory) {
            report(path, problem.message, at: node.mark)
            return nil
        }
        return directory
    }
}
