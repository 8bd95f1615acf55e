import GatehouseGraphQL

extension GatewayError {
    /// A request GraphQL cannot execute as sent is the client's mistake: a 400 with its message.
    init(_ error: GraphQLRequestError) {
        self.init(.badRequest, error.message)
    }
}
