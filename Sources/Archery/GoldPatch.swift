import Foundation

/// The face's centre: the patch of gold most ringed by red. A straw boss, a yellow wall or a
/// fletching can be gold too, and larger than the face's gold, but nothing else is red all round;
/// among patches equally ringed, the largest.
///
/// A face's gold is rarely one piece of gold pixels: the X and 10 lines cut it into a disc and two
/// rings on a large face, and shafts cut those. Pieces a thin line apart are one patch. A gold
/// shaft or fletching can join the gold to a gold boss, so the patches are also looked for with
/// the gold thinned by `erosions` pixels, which cuts such bridges; the best-ringed patch of any
/// thinning wins.
struct GoldPatch {
    static let minimumArea = 40
    static let probeRays = 36
    /// Where red may begin, in the patch's radii from its centroid (a face up to 35° off axis, a
    /// shaft or fletching taking or adding some gold).
    static let redDistance = 0.5...2.0
    /// How many of the largest patches are probed.
    static let candidates = 8
    /// The thinnings tried: none, and one that cuts bridges up to 5 pixels wide.
    static let erosions = [0, 2]
    /// Pieces this share of the patch's radius apart (plus the thinning on both sides) are one patch:
    /// the X and 10 lines are a twentieth of the gold's radius wide.
    static let joinedGap = 0.1

    var x: Double
    var y: Double
    var area: Int
    /// The gold's radius in working pixels, as if the patch were a disc (the thinning added back).
    var radius: Double
    /// Its number in `Patches.owner`.
    var index: Int32

    /// Every patch of at least `minimumArea` pixels, and which patch (1…) owns each pixel (0: none).
    struct Patches {
        var patches: [GoldPatch]
        var owner: [Int32]
    }

    static func centre(in image: WorkingImage) -> GoldPatch? {
        var best: (patch: GoldPatch, rays: Int)?
        for erosion in erosions {
            let found = all(in: image, erosion: erosion)
            for patch in found.patches.sorted(by: { $0.area > $1.area }).prefix(candidates) {
                let rays = patch.raysMeetingRed(in: image, owner: found.owner)
                if best.map({ rays > $0.rays || (rays == $0.rays && patch.area > $0.patch.area) }) ?? true { best = (patch, rays) }
            }
        }
        return best?.patch
    }

    /// How many of `probeRays` rays from the centroid leave this patch into red within half the
    /// patch's radius, at about the patch's radius from its centroid: the first run of three
    /// same-coloured pixels after it (thin lines, shafts and other gold skipped) is red. None when the centroid is not in the patch (a boss around the face's sheet).
    func raysMeetingRed(in image: WorkingImage, owner: [Int32]) -> Int {
        guard surroundsCentroid(in: image, owner: owner) else { return 0 }
        let reach = Int(3 * radius) + 3, beyond = max(6, Int(radius / 2))
        var meeting = 0
        for ray in 0..<Self.probeRays {
            let angle = Double(ray) * 2 * .pi / Double(Self.probeRays)
            let dx = cos(angle), dy = sin(angle)
            var run = 0, runLabel = RingColor.gold, lastOwn = 0
            for t in 0..<reach {
                let px = Int((x + Double(t) * dx).rounded()), py = Int((y + Double(t) * dy).rounded())
                guard px >= 0, py >= 0, px < image.width, py < image.height, t - lastOwn <= beyond else { break }
                let i = py * image.width + px
                if owner[i] == index { lastOwn = t; run = 0; continue }
                let label = image.labels[i]
                if label == runLabel { run += 1 } else { (runLabel, run) = (label, 1) }
                guard run >= 3 else { continue }
                // Red where a face's gold of this size ends: not a fragment's (a disc in the X
                // inside a ring of gold) nor a boss's that a gold shaft joined to the face's gold.
                if runLabel == .red, Self.redDistance.contains(Double(t - 2) / radius) { meeting += 1 }
                if runLabel != .black && runLabel != .other && runLabel != .gold { break }
            }
        }
        return meeting
    }

    /// Whether the centroid lies within the patch: at least half of a small disc around it is the
    /// patch's or what cuts it (a line, a shaft: anything but another zone's colour). Not the
    /// centroid's own pixel alone: arrows in the X put a shaft right there; a boss around the
    /// face's sheet has its centroid on the sheet, among the face's other colours.
    func surroundsCentroid(in image: WorkingImage, owner: [Int32]) -> Bool {
        let reach = max(1, Int(0.3 * radius)), step = max(1, reach / 6)
        var inside = 0, all = 0
        for dy in stride(from: -reach, through: reach, by: step) {
            for dx in stride(from: -reach, through: reach, by: step) where dx * dx + dy * dy <= reach * reach {
                let px = Int(x.rounded()) + dx, py = Int(y.rounded()) + dy
                guard px >= 0, py >= 0, px < image.width, py < image.height else { continue }
                all += 1
                let i = py * image.width + px
                if owner[i] == index || image.labels[i] == .black || image.labels[i] == .other { inside += 1 }
            }
        }
        return all > 0 && 2 * inside >= all
    }

    /// Every patch of at least `minimumArea` gold pixels, with the gold first thinned by `erosion`
    /// pixels (a pixel stays gold when every pixel within `erosion` of it, in a square, is gold),
    /// pieces a thin line apart joined.
    static func all(in image: WorkingImage, erosion: Int) -> Patches {
        let width = image.width, height = image.height
        var gold = image.labels.map { $0 == .gold }
        if erosion > 0 { gold = eroded(gold, width: width, height: height, by: erosion) }

        // 4-connected pieces.
        var piece = [Int32](repeating: 0, count: width * height)
        var sums = [(x: Int, y: Int, n: Int)]()
        var stack = [Int]()
        for start in 0..<(width * height) where piece[start] == 0 && gold[start] {
            sums.append((0, 0, 0))
            let id = Int32(sums.count)
            piece[start] = id
            stack.append(start)
            while let i = stack.popLast() {
                let x = i % width, y = i / width
                sums[sums.count - 1].x += x; sums[sums.count - 1].y += y; sums[sums.count - 1].n += 1
                for n in [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, y > 0 ? i - width : -1, y < height - 1 ? i + width : -1]
                where n >= 0 && piece[n] == 0 && gold[n] {
                    piece[n] = id
                    stack.append(n)
                }
            }
        }

        // Pieces a thin line apart: along every row and column, two pieces with only a short run of
        // other pixels between them.
        var parent = Array(0...sums.count)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        var joinedArea = sums.map(\.n)
        func consider(_ a: Int, _ b: Int, gap: Int) {
            let ra = root(a), rb = root(b)
            guard ra != rb else { return }
            let union = Double(joinedArea[ra - 1] + joinedArea[rb - 1])
            guard Double(gap) <= Double(2 * erosion) + max(3, joinedGap * (union / .pi).squareRoot()) else { return }
            parent[rb] = ra
            joinedArea[ra - 1] += joinedArea[rb - 1]
        }
        for (count, stride, lines, lineStride) in [(width, 1, height, width), (height, width, width, 1)] {
            for line in 0..<lines {
                var last = 0, lastAt = 0
                for k in 0..<count {
                    let id = Int(piece[line * lineStride + k * stride])
                    guard id > 0 else { continue }
                    if last > 0, last != id { consider(last, id, gap: k - lastAt - 1) }
                    (last, lastAt) = (id, k)
                }
            }
        }

        // Patches: joined pieces of at least `minimumArea` pixels, numbered from 1.
        var number = [Int32](repeating: 0, count: sums.count + 1)
        var totals = [Int: (x: Int, y: Int, n: Int)]()
        for id in 1..<(sums.count + 1) {
            let r = root(id), s = sums[id - 1]
            let t = totals[r] ?? (0, 0, 0)
            totals[r] = (t.x + s.x, t.y + s.y, t.n + s.n)
        }
        var patches = [GoldPatch]()
        for (r, t) in totals.sorted(by: { $0.key < $1.key }) where t.n >= minimumArea {
            let index = Int32(patches.count + 1)
            number[r] = index
            patches.append(GoldPatch(x: Double(t.x) / Double(t.n), y: Double(t.y) / Double(t.n), area: t.n,
                                     radius: (Double(t.n) / .pi).squareRoot() + Double(erosion), index: index))
        }
        let owner = piece.map { $0 == 0 ? 0 : number[root(Int($0))] }
        return Patches(patches: patches, owner: owner)
    }

    /// The mask thinned: a pixel stays set when every pixel within `by` of it (a square) is set.
    static func eroded(_ mask: [Bool], width: Int, height: Int, by e: Int) -> [Bool] {
        var rows = [Bool](repeating: false, count: mask.count)
        for y in 0..<height {
            var run = 0
            for x in 0..<width {
                run = mask[y * width + x] ? run + 1 : 0
                // Set where the run of 2e + 1 ending at x + e is whole.
                if run >= 2 * e + 1 { rows[y * width + x - e] = true }
            }
        }
        var out = [Bool](repeating: false, count: mask.count)
        for x in 0..<width {
            var run = 0
            for y in 0..<height {
                run = rows[y * width + x] ? run + 1 : 0
                if run >= 2 * e + 1 { out[(y - e) * width + x] = true }
            }
        }
        return out
    }
}
