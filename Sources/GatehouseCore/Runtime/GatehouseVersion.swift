/// The release this binary is: `gatehouse version` and the admin `/status` report it.
public enum GatehouseVersion {
    public static let current = "0.1.0"
}
