#include "rules/dobutsu/variant.h"

#include "rules/common/text.h"
#include "rules/dobutsu/parse_error.h"

namespace dobutsu {

bool names_dobutsu(std::string_view text) {
  return common::names_game(text, kVariantName);
}

Variant parse_variant(std::string_view text) {
  if (text != kVariantName)
    common::refuse("variant", text, "Dobutsu shogi has one variant, dobutsu (the 3x4 game)");
  return {};
}

}  // namespace dobutsu
