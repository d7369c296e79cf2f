// Small SVG charts for the claims report, drawn here so that the report needs no plotting
// package: lines over a logarithmic y axis (counts per ply) and grouped bars (distributions).
// Output is deterministic text, so a regenerated report differs only where the figures do.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace solver {

struct ChartSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y); on a log axis y <= 0 is not drawn
  bool dashed = false;
};

struct Chart {
  std::string title, x_label, y_label;
  bool log_y = false;
  bool bars = false;  // grouped bars at integer x instead of lines
  std::vector<ChartSeries> series;
};

std::string render_svg(const Chart& chart);

}  // namespace solver
