// Numbers as the claims report and its verdicts write them.
#pragma once

#include <string>

namespace solver::claims {

// Decimal digits with a comma every three.
std::string with_commas(const std::string& digits);
// `digits` significant digits (printf's %g).
std::string sci(double v, int digits = 3);
// A share as a percentage with three significant digits, so rare lengths do not read as 0.
std::string percent(double share);
// `decimals` digits after the point.
std::string fixed(double v, int decimals);

}  // namespace solver::claims
