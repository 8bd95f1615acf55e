// libFuzzer entry for JSONReader (GraphQL bodies, JOSE headers, JWT claims): no input may crash
// it, and whatever it accepts must serialize to a document that reads back as the same value.
import GatehouseGraphQL

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    for rejectDuplicates in [false, true] {
        guard let value = try? JSONReader.parse(bytes, maxDepth: 64, rejectDuplicateKeys: rejectDuplicates) else {
            continue
        }
        let again = try? JSONReader.parse(value.serializedBytes, maxDepth: 64, rejectDuplicateKeys: rejectDuplicates)
        precondition(again == value, "serialized form does not read back: \(value.serializedString)")
    }
    return 0
}
