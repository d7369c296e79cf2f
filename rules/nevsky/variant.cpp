#include "rules/nevsky/variant.h"

#include "rules/common/text.h"
#include "rules/nevsky/parse_error.h"

namespace nevsky {

namespace {

constexpr std::string_view kPairsSuffix = ":pairs";
constexpr const char* kAccepted =
    "expected nevsky, nevsky:NxN:M or nevsky:NxN:M+K, optionally followed by :pairs (N 3 to 8, M "
    "1, 3, 6 or 10 men a player, K 0 to 3 kings)";

[[noreturn]] void variant_error(std::string_view text, const std::string& what) {
  common::refuse("variant", text, what);
}

// A whole decimal number, or nothing; a number past 99 is read as 100, which fault() then names
// as too many (so 10^20 men are too many, not "not a number").
bool read_number(std::string_view s, int& out) {
  const auto n = common::whole_number(s, 99);
  if (n) out = *n;
  return n.has_value();
}

// The radius k of a start group of M men, or -1 when no group has M cells.
int radius_of(int men) {
  switch (men) {
    case 1:
      return 0;
    case 3:
      return 1;
    case 6:
      return 2;
    case 10:
      return 3;
    default:
      return -1;
  }
}

// What is wrong with v, or nothing.
std::string fault(const Variant& v) {
  const std::string grid = std::to_string(v.size) + "x" + std::to_string(v.size);
  if (v.size < kMinSize || v.size > kMaxSize) return "a " + grid + " grid; grids are 3x3 to 8x8";
  const int k = radius_of(v.men);
  if (k < 0)
    return std::to_string(v.men) +
           " men a player; a start group is 1, 3, 6 or 10 men (the cells within distance 0, 1, 2 "
           "or 3 of the corner)";
  if (v.kings < 0 || v.kings > kMaxKings || v.kings > v.men)
    return std::to_string(v.kings) + " kings a player; 0 to " +
           std::to_string(v.men < kMaxKings ? v.men : kMaxKings) + " with " +
           std::to_string(v.men) + (v.men == 1 ? " man" : " men");
  // Neighbouring corners are N - 1 apart: their groups share a cell when 2k >= N - 1.
  if (2 * k >= v.size - 1) {
    const std::string least = std::to_string(2 * k + 2);
    return "the start groups of " + std::to_string(v.men) + " men overlap on a " + grid +
           " grid; " + std::to_string(v.men) + " men need " + least + "x" + least + " or more";
  }
  return "";
}

}  // namespace

int Variant::radius() const {
  return radius_of(men);
}

std::string Variant::name() const {
  Variant plain = *this;
  plain.pairs = false;
  std::string s(kVariantName);
  if (plain != Variant{}) {
    const std::string n = std::to_string(size);
    s.append(":").append(n).append("x").append(n).append(":").append(std::to_string(men));
    if (kings) s.append("+").append(std::to_string(kings));
  }
  if (pairs) s += kPairsSuffix;
  return s;
}

bool names_nevsky(std::string_view text) {
  return common::names_game(text, kVariantName);
}

void check_variant(const Variant& v) {
  if (const std::string what = fault(v); !what.empty()) variant_error(v.name(), what);
}

Variant parse_variant(std::string_view text) {
  if (!names_nevsky(text)) variant_error(text, kAccepted);
  Variant v;
  std::string_view rest = text.substr(kVariantName.size());
  if (rest.size() >= kPairsSuffix.size() &&
      rest.substr(rest.size() - kPairsSuffix.size()) == kPairsSuffix) {
    v.pairs = true;
    rest.remove_suffix(kPairsSuffix.size());
  }
  if (rest.empty()) return v;
  // ":NxN:M" or ":NxN:M+K"
  rest.remove_prefix(1);
  const auto colon = rest.find(':');
  if (colon == std::string_view::npos) variant_error(text, kAccepted);
  const std::string_view board = rest.substr(0, colon);
  std::string_view men = rest.substr(colon + 1), kings;
  if (const auto plus = men.find('+'); plus != std::string_view::npos) {
    kings = men.substr(plus + 1);
    men = men.substr(0, plus);
    if (!read_number(kings, v.kings))
      variant_error(text, "the kings a player are '" + std::string(kings) +
                              "', expected a number 0 to 3 after '+'");
  }
  const auto sides = common::board_size(board, 99);
  if (!sides)
    variant_error(text,
                  "the grid is '" + std::string(board) + "', expected NxN like 6x6; " + kAccepted);
  if (sides->first != sides->second) variant_error(text, "the grid must be square (NxN)");
  v.size = sides->first;
  if (!read_number(men, v.men))
    variant_error(text, "the men a player are '" + std::string(men) + "', expected 1, 3, 6 or 10");
  if (const std::string what = fault(v); !what.empty()) variant_error(text, what);
  return v;
}

}  // namespace nevsky
