/// `routes[i].rate_limit[j]:` — one limit on a route: whose requests are counted together (the
/// key), how many are allowed per window, and how many at once.
public struct RateLimitConfig: Sendable, Equatable {
    /// Whose requests share one allowance.
    public enum Key: Sendable, Equatable, CustomStringConvertible {
        /// The client address (the first untrusted hop when the peer is a trusted proxy).
        case ip
        /// The authenticated subject: provider and verified `sub`.
        case subject
        /// The API key that authenticated the request (kept as its SHA-256 only).
        case apiKey
        /// The value of a request header, as written in the config; a missing value is the key "".
        case header(String)
        /// The whole route: every request counts against one allowance.
        case route

        /// Whether the key is only known once the request has been authenticated.
        public var needsAuthentication: Bool {
            switch self {
            case .subject, .apiKey: return true
            case .ip, .header, .route: return false
            }
        }

        /// The key as the config writes it; also the default policy name.
        public var description: String {
            switch self {
            case .ip: return "ip"
            case .subject: return "subject"
            case .apiKey: return "api_key"
            case .header(let name): return "header:\(name)"
            case .route: return "route"
            }
        }
    }

    /// The store that holds the limit's state when none is named: this process's memory.
    public static let memoryStore = "memory"

    /// The policy name shown in `RateLimit` headers and metrics; defaults to the key.
    public var name: String
    public var key: Key
    public var rate: RateLimitRate
    /// Requests allowed at once; defaults to the rate's count.
    public var burst: Int
    public var store: String

    public init(name: String? = nil, key: Key, rate: RateLimitRate, burst: Int? = nil, store: String = memoryStore) {
        self.name = name ?? key.description
        self.key = key
        self.rate = rate
        self.burst = burst ?? rate.count
        self.store = store
    }
}

/// `rate: N/s | N/m | N/h`.
public struct RateLimitRate: Sendable, Equatable, CustomStringConvertible {
    public enum Window: String, Sendable, Equatable, CaseIterable {
        case second = "s"
        case minute = "m"
        case hour = "h"

        public var seconds: Int {
            switch self {
            case .second: return 1
            case .minute: return 60
            case .hour: return 3600
            }
        }
    }

    public var count: Int
    public var window: Window

    public init(count: Int, per window: Window) {
        self.count = count
        self.window = window
    }

    public var description: String { "\(count)/\(window.rawValue)" }
}
