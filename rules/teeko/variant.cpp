#include "rules/teeko/variant.h"

#include "rules/common/text.h"
#include "rules/teeko/parse_error.h"

namespace teeko {

namespace {

[[noreturn]] void variant_error(std::string_view text, const std::string& what) {
  common::refuse("variant", text, what);
}

constexpr std::string_view kAdvanced = "advanced";

}  // namespace

std::string Variant::name() const {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on ":" + std::string(...).
  std::string out(kVariantName);
  if (size != Variant{}.size) {
    out += ':';
    out += std::to_string(size);
    out += 'x';
    out += std::to_string(size);
  }
  if (advanced) {
    out += ':';
    out += kAdvanced;
  }
  return out;
}

bool names_teeko(std::string_view text) {
  return common::names_game(text, kVariantName);
}

Variant parse_variant(std::string_view text) {
  constexpr std::string_view kExpected =
      "expected teeko, teeko:advanced, teeko:NxN or teeko:NxN:advanced";
  if (!names_teeko(text)) variant_error(text, std::string(kExpected));
  Variant v;
  if (text == kVariantName) return v;
  const auto parts = common::split(
      text.substr(kVariantName.size() + 1), [](char ch) { return ch == ':'; }, true);
  std::size_t next = 0;
  if (parts[next] != kAdvanced) {
    const auto sides = common::board_size(parts[next], kMaxSize);
    if (!sides)
      variant_error(text, "'" + std::string(parts[next]) +
                              "' is neither a board (NxN like 5x5) nor " + std::string(kAdvanced) +
                              "; " + std::string(kExpected));
    const auto [width, height] = *sides;
    if (width != height) variant_error(text, "the board must be square (NxN)");
    if (width < kMinSize || width > kMaxSize)
      variant_error(text, "a side of " + std::string(parts[next].substr(0, parts[next].find('x'))) +
                              "; boards are 4x4 to 7x7");
    v.size = width;
    ++next;
  }
  if (next < parts.size()) {
    if (parts[next] != kAdvanced) {
      std::string what = "'";
      what += parts[next];
      what += "' after the board; ";
      what += kExpected;
      variant_error(text, what);
    }
    v.advanced = true;
    ++next;
  }
  if (next < parts.size())
    variant_error(text, "nothing may follow '" + std::string(kAdvanced) + "'");
  return v;
}

}  // namespace teeko
