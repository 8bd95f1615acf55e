/// A share written as `20%` (0 to 100).
public enum PercentSyntax {
    public static func parse(_ text: String) -> Result<Int, ValueProblem> {
        guard text.hasSuffix("%"), let value = Int(text.dropLast()), (0...100).contains(value) else {
            return .failure(ValueProblem("expected a percentage from 0% to 100%, e.g. 20%, got \"\(text)\""))
        }
        return .success(value)
    }
}
