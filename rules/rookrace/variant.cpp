#include "rules/rookrace/variant.h"

#include "rules/common/text.h"
#include "rules/rookrace/parse_error.h"

namespace rookrace {

namespace {

[[noreturn]] void variant_error(std::string_view text, const std::string& what) {
  common::refuse("variant", text, what);
}

}  // namespace

std::string Variant::name() const {
  if (*this == Variant{}) return std::string(kVariantName);
  return std::string(kVariantName) + ":" + std::to_string(size) + "x" + std::to_string(size) + ":" +
         std::to_string(pawns);
}

bool names_rookrace(std::string_view text) {
  return common::names_game(text, kVariantName);
}

Variant parse_variant(std::string_view text) {
  if (!names_rookrace(text)) variant_error(text, "expected rookrace or rookrace:NxN:P");
  if (text == kVariantName) return Variant{};
  const std::string_view rest = text.substr(kVariantName.size() + 1);
  const auto colon = rest.find(':');
  if (colon == std::string_view::npos)
    variant_error(text,
                  "expected rookrace:NxN:P (the board, then the pawns a side, e.g. "
                  "rookrace:4x4:2)");
  const std::string_view board = rest.substr(0, colon), pawns = rest.substr(colon + 1);
  constexpr int kMostSide = 8;
  const auto sides = common::board_size(board, kMostSide);
  if (!sides)
    variant_error(text, "the board is '" + std::string(board) + "', expected NxN like 6x6");
  const auto [width, height] = *sides;
  if (width != height) variant_error(text, "the board must be square (NxN)");
  if (width < 2 || width > kMostSide || width % 2)
    variant_error(text, "a side of " + std::string(board.substr(0, board.find('x'))) +
                            "; boards are 2x2, 4x4, 6x6 or 8x8 (whole 2x2 blocks)");
  Variant v;
  v.size = width;
  const auto count = common::whole_number(pawns, kMaxPawns);
  if (!count)
    variant_error(text, "the pawns a side are '" + std::string(pawns) +
                            "', not a number; expected 0 to " + std::to_string(kMaxPawns));
  if (*count > kMaxPawns)
    variant_error(text, "the pawns a side are '" + std::string(pawns) + "', more than " +
                            std::to_string(kMaxPawns) + " (expected 0 to " +
                            std::to_string(kMaxPawns) + ")");
  v.pawns = *count;
  return v;
}

}  // namespace rookrace
