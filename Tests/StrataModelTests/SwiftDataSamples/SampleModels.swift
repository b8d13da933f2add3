// Models written the way Apple's SwiftData documentation writes them ("Preserving your app's model
// data across launches", "Defining data relationships with enumerations and model classes"), with
// only `import SwiftData` replaced by `import StrataModel`. Not final, as Apple's samples are.
import Foundation
import StrataModel

@Model
class Recipe {
    @Attribute(.unique) var name: String
    var summary: String?
    @Attribute(.preserveValueOnDeletion) var createdAt: Date
    @Relationship(deleteRule: .cascade, inverse: \RecipeStep.recipe) var steps: [RecipeStep] = []
    @Transient var isExpanded: Bool = false
    @Transient var thumbnailCache: Data?

    init(name: String, summary: String? = nil, createdAt: Date = Date(timeIntervalSince1970: 0)) {
        self.name = name
        self.summary = summary
        self.createdAt = createdAt
    }
}

@Model
class RecipeStep {
    var text: String
    var order: Int
    var recipe: Recipe?

    init(text: String, order: Int) {
        self.text = text
        self.order = order
    }
}

@Model
final class Memo {
    var title: String
    var body: String = ""
    @Transient var draft: String?

    init(title: String) {
        self.title = title
    }
}
