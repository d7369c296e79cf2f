#include "solver/claims_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace solver {

namespace {

constexpr double kWidth = 760, kHeight = 440;
constexpr double kLeft = 80, kRight = 20, kTop = 40, kBottom = 60;
constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                    "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f"};

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

std::string escaped(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '&')
      out += "&amp;";
    else if (ch == '<')
      out += "&lt;";
    else if (ch == '>')
      out += "&gt;";
    else
      out += ch;
  }
  return out;
}

std::string colour(std::size_t i) {
  return kPalette[i % std::size(kPalette)];
}

// Maps data to pixels: x linearly over [x_min, x_max], y linearly or by log10 over [y_min, y_max].
struct Axes {
  double x_min, x_max, y_min, y_max;
  bool log_y, bars;

  double x(double v) const {
    const double pad = bars ? 0.5 : 0.0;
    const double span = std::max(1e-9, x_max - x_min + 2 * pad);
    return kLeft + (v - x_min + pad) / span * (kWidth - kLeft - kRight);
  }
  double y(double v) const {
    const double t =
        log_y ? (std::log10(v) - y_min) / (y_max - y_min) : (v - y_min) / (y_max - y_min);
    return kHeight - kBottom - t * (kHeight - kTop - kBottom);
  }
};

// A round step that gives about five ticks over [0, top].
double linear_step(double top) {
  const double raw = top / 5;
  const double magnitude = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) return m * magnitude;
  return 10 * magnitude;
}

}  // namespace

std::string render_svg(const Chart& chart) {
  double x_min = std::numeric_limits<double>::max(), x_max = -x_min;
  double y_low = std::numeric_limits<double>::max(), y_high = 0;
  for (const auto& s : chart.series)
    for (auto [x, y] : s.points) {
      if ((chart.log_y || chart.bars) && y <= 0) continue;  // not drawn, so not in range
      x_min = std::min(x_min, x);
      x_max = std::max(x_max, x);
      y_low = std::min(y_low, y);
      y_high = std::max(y_high, y);
    }
  if (x_min > x_max) x_min = x_max = 0, y_low = y_high = 1;

  Axes axes{x_min, x_max, 0, 1, chart.log_y, chart.bars};
  double y_step;
  if (chart.log_y) {
    axes.y_min = std::floor(std::log10(y_low));
    axes.y_max = std::max(axes.y_min + 1, std::ceil(std::log10(y_high)));
    y_step = std::max(1.0, std::ceil((axes.y_max - axes.y_min) / 12));  // decades per tick
    axes.y_max = axes.y_min + std::ceil((axes.y_max - axes.y_min) / y_step) * y_step;
  } else {
    y_step = linear_step(y_high > 0 ? y_high : 1);
    axes.y_max = std::ceil((y_high > 0 ? y_high : 1) / y_step) * y_step;
  }

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(kWidth) +
                    "\" height=\"" + number(kHeight) + "\" viewBox=\"0 0 " + number(kWidth) + " " +
                    number(kHeight) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + number(kWidth / 2) +
         "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" + escaped(chart.title) +
         "</text>\n";

  // Grid and tick labels.
  for (double t = axes.y_min; t <= axes.y_max + 1e-9; t += y_step) {
    const double py = chart.log_y ? axes.y(std::pow(10, t)) : axes.y(t);
    svg += "<line x1=\"" + number(kLeft) + "\" y1=\"" + number(py) + "\" x2=\"" +
           number(kWidth - kRight) + "\" y2=\"" + number(py) + "\" stroke=\"#ddd\"/>\n";
    char label[32];
    if (chart.log_y)
      std::snprintf(label, sizeof label, "1e%d", int(t));
    else
      std::snprintf(label, sizeof label, "%g", t);
    svg += "<text x=\"" + number(kLeft - 6) + "\" y=\"" + number(py + 4) +
           "\" text-anchor=\"end\">" + label + "</text>\n";
  }
  const double x_tick = std::max(1.0, std::ceil((x_max - x_min) / 16));
  for (double t = x_min; t <= x_max + 1e-9; t += x_tick) {
    char label[32];
    std::snprintf(label, sizeof label, "%g", t);
    svg += "<text x=\"" + number(axes.x(t)) + "\" y=\"" + number(kHeight - kBottom + 18) +
           "\" text-anchor=\"middle\">" + label + "</text>\n";
  }
  svg += "<rect x=\"" + number(kLeft) + "\" y=\"" + number(kTop) + "\" width=\"" +
         number(kWidth - kLeft - kRight) + "\" height=\"" + number(kHeight - kTop - kBottom) +
         "\" fill=\"none\" stroke=\"#444\"/>\n";
  svg += "<text x=\"" + number((kLeft + kWidth - kRight) / 2) + "\" y=\"" + number(kHeight - 18) +
         "\" text-anchor=\"middle\">" + escaped(chart.x_label) + "</text>\n";
  svg += "<text transform=\"translate(18 " + number((kTop + kHeight - kBottom) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + escaped(chart.y_label) + "</text>\n";

  // Data.
  const double group = (axes.x(1) - axes.x(0)) * 0.8;
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const auto& s = chart.series[i];
    if (chart.bars) {
      const double width = group / double(chart.series.size());
      for (auto [x, y] : s.points) {
        if (y <= 0) continue;
        const double left = axes.x(x) - group / 2 + double(i) * width;
        svg += "<rect x=\"" + number(left) + "\" y=\"" + number(axes.y(y)) + "\" width=\"" +
               number(width) + "\" height=\"" + number(kHeight - kBottom - axes.y(y)) +
               "\" fill=\"" + colour(i) + "\"/>\n";
      }
      continue;
    }
    std::string path;
    for (auto [x, y] : s.points) {
      if (chart.log_y && y <= 0) continue;
      if (!path.empty()) path += ' ';
      path += number(axes.x(x)) + "," + number(axes.y(y));
      svg += "<circle cx=\"" + number(axes.x(x)) + "\" cy=\"" + number(axes.y(y)) +
             "\" r=\"2.5\" fill=\"" + colour(i) + "\"/>\n";
    }
    svg += "<polyline fill=\"none\" stroke=\"" + colour(i) + "\" stroke-width=\"1.8\"" +
           (s.dashed ? " stroke-dasharray=\"6 4\"" : "") + " points=\"" + path + "\"/>\n";
  }

  // Legend, top left inside the plot.
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const double y = kTop + 16 + 16 * double(i);
    svg += "<rect x=\"" + number(kLeft + 10) + "\" y=\"" + number(y - 9) +
           "\" width=\"14\" height=\"10\" fill=\"" + colour(i) + "\"/>\n";
    svg += "<text x=\"" + number(kLeft + 30) + "\" y=\"" + number(y) + "\">" +
           escaped(chart.series[i].name) + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace solver
