import GatehouseIO
import Glibc

/// Writes a generated package to disk. Files whose contents did not change are left alone (so a
/// rebuild after generating again is incremental), generated Swift files no longer produced are
/// removed, and a directory holding a package the generator did not write is refused. When files
/// come or go, the manifest's modification time is renewed: SwiftPM plans a package it depends on
/// by path again only when that package's manifest changed, and would otherwise miss them.
public enum GeneratedPackageWriter {
    public struct Summary: Sendable, Equatable {
        public var written: Int
        public var unchanged: Int
        public var removed: Int
    }

    public static func write(_ files: [GeneratedFile], to directory: String,
                             packageName: String) -> Result<Summary, SDKIssue> {
        let manifest = directory + "/Package.swift"
        if let existing = FileSystem.readText(manifest), !existing.contains(text: SwiftPackageGenerator.manifestMarker) {
            return .failure(SDKIssue(file: manifest, position: nil,
                                     message: "not written by gatehouse sdk; choose another --out directory"))
        }
        var summary = Summary(written: 0, unchanged: 0, removed: 0)
        let produced = Set(files.map { directory + "/" + $0.path })
        let sources = directory + "/Sources/" + packageName
        for stale in FileSystem.files(under: sources) ?? []
            where stale.hasSuffix(".swift") && !produced.contains(sources + "/" + stale) {
            if unlink(sources + "/" + stale) == 0 { summary.removed += 1 }
        }
        var created = 0
        for file in files {
            let path = directory + "/" + file.path
            let bytes = Array(file.contents.utf8)
            let existing = try? FileSystem.read(path).get()
            if existing == bytes {
                summary.unchanged += 1
                continue
            }
            if existing == nil { created += 1 }
            let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            guard case .success = FileSystem.makeDirectories(parent), case .success = FileSystem.write(bytes, to: path) else {
                return .failure(SDKIssue(file: path, position: nil, message: "cannot write the file"))
            }
            summary.written += 1
        }
        if created + summary.removed > 0 { FileSystem.touch(manifest) }
        return .success(summary)
    }
}
