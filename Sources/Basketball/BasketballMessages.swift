/// Messages a person reads, in one place.
enum BasketballMessages {
    static let hoopNotFound = "No hoop found in the first frames: keep the rim and backboard in view, or give the option hoop "
        + "{\"rimLeft\": [x, y], \"rimRight\": [x, y]} with the image pixels of the rim's two ends"
}
