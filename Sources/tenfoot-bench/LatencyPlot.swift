import Foundation
import Histogram

/// An SVG of latency percentile curves (the usual HdrHistogram plot): x is the percentile on a
/// log scale of 1/(1 − p) (0 %, 90 %, 99 %, 99.9 %, 99.99 %), y the latency in microseconds on
/// a log scale, so the body of the distribution and its tail both show.
enum LatencyPlot {
  /// One curve.
  struct Series {
    var label: String
    var color: String
    var dashed: Bool
    var histogram: Histogram<UInt64>
  }

  static func svg(title: String, series: [Series]) -> String {
    let width = 760.0
    let height = 440.0
    let left = 70.0
    let right = 190.0
    let top = 40.0
    let bottom = 50.0
    let plotWidth = width - left - right
    let plotHeight = height - top - bottom
    let maxX = 4.0  // log10(1 / (1 - 0.9999))
    let curves = series.map { item in
      points(item.histogram).filter { $0.x <= maxX }
    }
    let values = curves.flatMap { $0.map(\.y) }.filter { $0 > 0 }
    let yLow = pow(10, floor(log10(values.min() ?? 1)))
    let yHigh = pow(10, ceil(log10(max(values.max() ?? 10, yLow * 10))))
    let decades = log10(yHigh / yLow)
    func px(_ x: Double) -> Double { left + x / maxX * plotWidth }
    func py(_ y: Double) -> Double {
      top + plotHeight - log10(max(y, yLow) / yLow) / decades * plotHeight
    }

    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
      viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      <text x="\(left)" y="24" font-size="15" font-weight="bold">\(escape(title))</text>

      """
    for tick in 0...4 {
      let x = px(Double(tick))
      let label = ["0%", "90%", "99%", "99.9%", "99.99%"][tick]
      svg += """
        <line x1="\(x)" y1="\(top)" x2="\(x)" y2="\(top + plotHeight)" stroke="#ddd"/>
        <text x="\(x)" y="\(top + plotHeight + 18)" text-anchor="middle">\(label)</text>

        """
    }
    var tick = yLow
    while tick <= yHigh * 1.0001 {
      for factor in [1.0, 2.0, 5.0] where tick * factor <= yHigh * 1.0001 {
        let value = tick * factor
        let y = py(value)
        svg += """
          <line x1="\(left)" y1="\(y)" x2="\(left + plotWidth)" y2="\(y)" \
          stroke="\(factor == 1 ? "#ccc" : "#eee")"/>
          <text x="\(left - 8)" y="\(y + 4)" text-anchor="end">\(format(value))</text>

          """
      }
      tick *= 10
    }
    svg += """
      <text x="\(left + plotWidth / 2)" y="\(height - 10)" text-anchor="middle">percentile</text>
      <text x="18" y="\(top + plotHeight / 2)" text-anchor="middle" \
      transform="rotate(-90 18 \(top + plotHeight / 2))">latency (µs)</text>

      """
    for (index, item) in series.enumerated() {
      let path = curves[index].map { "\(px($0.x)),\(py($0.y))" }.joined(separator: " ")
      let dash = item.dashed ? " stroke-dasharray=\"6 4\"" : ""
      let legendY = top + 10 + Double(index) * 22
      svg += """
        <polyline fill="none" stroke="\(item.color)" stroke-width="2"\(dash) points="\(path)"/>
        <line x1="\(left + plotWidth + 15)" y1="\(legendY)" x2="\(left + plotWidth + 45)" \
        y2="\(legendY)" stroke="\(item.color)" stroke-width="2"\(dash)/>
        <text x="\(left + plotWidth + 52)" y="\(legendY + 4)">\(escape(item.label))</text>

        """
    }
    return svg + "</svg>\n"
  }

  /// (log10(1/(1-p)), microseconds) along the histogram's percentile iteration.
  private static func points(_ histogram: Histogram<UInt64>) -> [(x: Double, y: Double)] {
    var result: [(x: Double, y: Double)] = []
    for step in histogram.percentiles(ticksPerHalfDistance: 5) {
      let fraction = step.percentileLevelIteratedTo / 100
      guard fraction < 1 else { break }
      result.append((log10(1 / (1 - fraction)), Double(step.value) / 1000))
    }
    return result
  }

  private static func format(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
  }

  private static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
  }
}
