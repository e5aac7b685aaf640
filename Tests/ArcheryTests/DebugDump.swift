import ArcheryScenes
import Foundation

/// With ARCHERY_DUMP=DIR set, tests write their rendered photos there as PPM, to look at.
enum DebugDump {
    static func write(_ photo: RenderedPhoto, name: String) {
        guard let directory = ProcessInfo.processInfo.environment["ARCHERY_DUMP"] else { return }
        var data = Data("P6\n\(photo.width) \(photo.height)\n255\n".utf8)
        data.append(contentsOf: photo.pixels)
        try? data.write(to: URL(fileURLWithPath: directory).appendingPathComponent("\(name).ppm"))
    }
}
