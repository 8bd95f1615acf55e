// The common case of skimming, in one tight loop: a document whose strings are printable ASCII
// without escapes (what GraphQL servers send for ASCII data). Anything else — an escape, a byte
// past ASCII, nesting past 64, any grammar error — makes it give up, and the full skim
// (`JSONParser+Skimming.swift`) decides with every rule. So it answers only for documents it has
// checked completely, and a document it gives up on costs one more walk.

enum JSONFastSkim {
    /// Whether the document is an object and has the top-level key `key`; nil: not decided here.
    static func skim(_ bytes: UnsafeRawBufferPointer, topLevelKey key: [UInt8], maxDepth: Int)
        -> (isObject: Bool, hasKey: Bool)? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let end = bytes.count
        let depthLimit = min(maxDepth, UInt64.bitWidth)
        return key.withUnsafeBufferPointer { key -> (isObject: Bool, hasKey: Bool)? in
            var walk = Walk(base: base, end: end)
            return walk.document(key: key, depthLimit: depthLimit)
        }
    }

    /// The walk's cursor, kept in locals of one inlined loop.
    struct Walk {
        let base: UnsafePointer<UInt8>
        let end: Int
        var index = 0

        init(base: UnsafePointer<UInt8>, end: Int) {
            self.base = base
            self.end = end
        }

        @inline(__always)
        mutating func skipWhitespace() {
            while index < end {
                let byte = base[index]
                // Whitespace is at most 0x20: one comparison settles every other byte, and
                // documents from servers mostly have none between their tokens.
                guard byte <= 0x20, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                index += 1
            }
        }

        /// At an opening quote: steps past the closing one; where the content starts (it ends
        /// before `index - 1`), nil to give up.
        @inline(__always)
        mutating func plainString() -> Int? {
            index += 1
            let start = index
            // The plain run ends at the quote, the backslash, a control byte or a byte past ASCII:
            // eight bytes at a time while they last, then one at a time (`byte - 0x20` wraps past
            // 0x5F for both of the last two).
            while end - index >= 8 {
                let stops = Self.stops(in: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                guard stops == 0 else {
                    index &+= stops.trailingZeroBitCount &>> 3
                    break
                }
                index += 8
            }
            while index < end {
                let byte = base[index]
                if byte == 0x22 || byte == 0x5C || byte &- 0x20 >= 0x60 { break }
                index += 1
            }
            guard index < end, base[index] == 0x22 else { return nil }
            index += 1
            return start
        }

        private static let ones: UInt64 = 0x0101_0101_0101_0101
        private static let highBits: UInt64 = 0x8080_8080_8080_8080

        /// The high bit of each of the eight bytes (read little-endian) that ends a plain run;
        /// bytes past the first such byte may be marked wrongly, so only the first mark counts.
        @inline(__always)
        static func stops(in loaded: UInt64) -> UInt64 {
            let word = UInt64(littleEndian: loaded)
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            // A byte is zero (its quote or backslash) or below 0x20 where subtracting borrows
            // into its high bit while its own high bit was clear.
            let zeroQuote = (quotes &- ones) & ~quotes
            let zeroBackslash = (backslashes &- ones) & ~backslashes
            let control = (word &- ones &* 0x20) & ~word
            return (zeroQuote | zeroBackslash | control | word) & highBits
        }

        @inline(__always)
        mutating func digits() -> Bool {
            let start = index
            while index < end, base[index] &- 0x30 < 10 { index += 1 }
            return index > start
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        @inline(__always)
        mutating func number() -> Bool {
            if base[index] == UInt8(ascii: "-") { index += 1 }
            guard index < end else { return false }
            if base[index] == UInt8(ascii: "0") {
                index += 1
                if index < end, base[index] &- 0x30 < 10 { return false }
            } else if !digits() {
                return false
            }
            if index < end, base[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() else { return false }
            }
            if index < end, base[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < end, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() else { return false }
            }
            return true
        }

        @inline(__always)
        func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
            var offset = 0
            while offset < count {
                if a[offset] != b[offset] { return false }
                offset += 1
            }
            return true
        }

        @inline(__always)
        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard end - index >= count, equal(base + index, text.utf8Start, count) else { return false }
            index += count
            return true
        }

        /// At a member: its key, colon and the whitespace after. nil to give up; else whether
        /// the key is `key` (asked only of the top level).
        @inline(__always)
        mutating func member(key: UnsafeBufferPointer<UInt8>, atTopLevel: Bool) -> Bool? {
            guard index < end, base[index] == 0x22, let start = plainString() else { return nil }
            let matches = atTopLevel && index &- 1 &- start == key.count && equal(base + start, key.baseAddress!, key.count)
            skipWhitespace()
            guard index < end, base[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            return matches
        }

        @inline(__always)
        mutating func document(key: UnsafeBufferPointer<UInt8>, depthLimit: Int) -> (isObject: Bool, hasKey: Bool)? {
            skipWhitespace()
            guard index < end else { return nil }
            let isObject = base[index] == UInt8(ascii: "{")
            var hasKey = false
            var depth = 0
            // Bit d - 1 says whether the container at depth d is an object.
            var objects: UInt64 = 0
            value: while true {
                guard index < end else { return nil }
                switch base[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let opensObject = base[index] == UInt8(ascii: "{")
                    depth += 1
                    guard depth <= depthLimit else { return nil }
                    // Wrapping shifts: depth is within 1...64 here, so the checked forms only cost.
                    let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: depth &- 1)
                    objects = opensObject ? objects | bit : objects & ~bit
                    index += 1
                    skipWhitespace()
                    guard index < end else { return nil }
                    if base[index] == (opensObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                        depth -= 1
                    } else {
                        if opensObject {
                            guard let matches = member(key: key, atTopLevel: depth == 1) else { return nil }
                            hasKey = hasKey || matches
                        }
                        continue value
                    }
                case 0x22:
                    guard plainString() != nil else { return nil }
                case UInt8(ascii: "t"):
                    guard literal("true") else { return nil }
                case UInt8(ascii: "f"):
                    guard literal("false") else { return nil }
                case UInt8(ascii: "n"):
                    guard literal("null") else { return nil }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard number() else { return nil }
                default:
                    return nil
                }
                // After a value: close what ends here, then the next member or element.
                while depth > 0 {
                    let inObject = (objects &>> UInt64(truncatingIfNeeded: depth &- 1)) & 1 == 1
                    skipWhitespace()
                    guard index < end else { return nil }
                    let byte = base[index]
                    index += 1
                    if byte == UInt8(ascii: ",") {
                        skipWhitespace()
                        if inObject {
                            guard let matches = member(key: key, atTopLevel: depth == 1) else { return nil }
                            hasKey = hasKey || matches
                        }
                        continue value
                    }
                    guard byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return nil }
                    depth -= 1
                }
                break
            }
            skipWhitespace()
            guard index == end else { return nil }
            return (isObject, hasKey)
        }
    }
}
