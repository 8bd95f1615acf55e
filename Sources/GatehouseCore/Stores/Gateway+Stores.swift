import GatehouseGraphQL

extension GatewaySnapshot {
    /// The stores of this configuration for `GET /status`: `[{name, type, url, up, last_error}]`,
    /// the url without its password; `up` is false while any worker's connection is marked down.
    public func storesStatusJSON() -> JSONValue { .array(stores.map(\.statusJSON)) }
}
