/// An adventure of AEM's WKND sample site, as the `adventureList` queries return it.
struct DemoAdventure: Sendable, Equatable {
    var title: String
    var slug: String
    var price: Int
    var tripLength: String

    var object: DemoObject {
        DemoObject("AdventureModel", [
            "title": .string(title),
            "slug": .string(slug),
            "price": .int(price),
            "tripLength": .string(tripLength),
        ])
    }

    static let catalogue: [DemoAdventure] = [
        DemoAdventure(title: "Bali Surf Camp", slug: "bali-surf-camp", price: 5000, tripLength: "6 Days"),
        DemoAdventure(title: "Climbing New Zealand", slug: "climbing-new-zealand", price: 900, tripLength: "2 Days"),
        DemoAdventure(title: "Cycling Tuscany", slug: "cycling-tuscany", price: 4500, tripLength: "6 Days"),
        DemoAdventure(title: "Ski Touring Mont Blanc", slug: "ski-touring-mont-blanc", price: 3500,
                      tripLength: "4 Days"),
    ]
}
