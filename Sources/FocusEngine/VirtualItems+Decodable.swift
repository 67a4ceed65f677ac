extension VirtualItems: Decodable {
  private enum CodingKeys: String, CodingKey, CaseIterable {
    case count, origin, itemSize, spacing, arrangement, columns, titlePrefix, sizes
  }

  private enum RunKeys: String, CodingKey, CaseIterable {
    case count, length
  }

  private enum OriginKeys: String, CodingKey, CaseIterable {
    case x, y
  }

  /// Decodes `{"count", "itemSize": {"width", "height"}, "origin"?: {"x", "y"},
  /// "spacing"?: {"width", "height"}, "arrangement"?: "row" | "column" | "grid",
  /// "columns"? (a grid's, required for one), "titlePrefix"?, "sizes"?: [{"count", "length"}]
  /// (a row's or a column's per-index lengths, ``SizeRuns``)}`; unknown fields are errors.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    var origin = Point.zero
    if container.contains(.origin) {
      let nested = try container.superDecoder(forKey: .origin)
      try StrictKeys.check(nested, allowed: OriginKeys.self)
      let point = try nested.container(keyedBy: OriginKeys.self)
      origin = Point(
        x: try point.decode(Double.self, forKey: .x), y: try point.decode(Double.self, forKey: .y))
    }
    let name = try container.decodeIfPresent(String.self, forKey: .arrangement) ?? "row"
    let columns = try container.decodeIfPresent(Int.self, forKey: .columns)
    let arrangement: VirtualArrangement
    switch (name, columns) {
    case ("row", nil): arrangement = .row
    case ("column", nil): arrangement = .column
    case ("grid", let columns?): arrangement = .grid(columns: columns)
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .arrangement, in: container,
        debugDescription:
          "arrangement must be \"row\", \"column\" or \"grid\" (with \"columns\" for a grid only)")
    }
    var sizes: SizeRuns?
    if container.contains(.sizes) {
      var list = try container.nestedUnkeyedContainer(forKey: .sizes)
      var runs: [SizeRun] = []
      while !list.isAtEnd {
        if runs.count > Self.maximumSizeRuns {
          throw DecodingError.dataCorruptedError(
            in: list, debugDescription: "more than \(Self.maximumSizeRuns) size runs")
        }
        let nested = try list.superDecoder()
        try StrictKeys.check(nested, allowed: RunKeys.self)
        let run = try nested.container(keyedBy: RunKeys.self)
        runs.append(
          SizeRun(
            count: try run.decode(Int.self, forKey: .count),
            length: try run.decode(Double.self, forKey: .length)))
      }
      sizes = SizeRuns(runs)
    }
    self.init(
      count: try container.decode(Int.self, forKey: .count), origin: origin,
      itemSize: try container.decode(Size.self, forKey: .itemSize),
      spacing: try container.decodeIfPresent(Size.self, forKey: .spacing)
        ?? Size(width: 0, height: 0),
      arrangement: arrangement,
      titlePrefix: try container.decodeIfPresent(String.self, forKey: .titlePrefix) ?? "",
      sizes: sizes)
  }
}
