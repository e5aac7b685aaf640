/// Messages a person reads, in one place.
enum BasketballMessages {
    static let hoopNotFound = "No hoop found in the first frames: keep the rim and backboard in view, or give the option hoop "
        + "{\"rimLeft\": [x, y], \"rimRight\": [x, y]} with the image pixels of the rim's two ends"
    static let noBallSeen = "No ball seen in any frame: keep the ball in view, or give the option ballColor {\"h\": 0-360, \"s\": 0-100, \"v\": 0-100} "
        + "with the ball's colour (default an orange ball)"
}
