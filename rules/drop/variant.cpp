#include "rules/drop/variant.h"

#include <cctype>

#include "rules/common/text.h"
#include "rules/drop/parse_error.h"

namespace drop {

int Variant::hand_size(Color c) const {
  int n = 0;
  for (auto count : start_hand[c]) n += count;
  return n;
}

Variant drop16_variant() {
  Variant v;
  v.width = v.height = 4;
  v.start_hand[kWhite] = v.start_hand[kBlack] = Hand{2, 2, 2, 1, 1};
  return v;
}

std::string hand_string(const Hand& hand, Color c) {
  std::string s;
  for (PieceType t : kAllPieceTypes) s.append(hand[t], piece_letter(t, c));
  return s.empty() ? "-" : s;
}

std::string Variant::name() const {
  if (*this == drop16_variant()) return "drop16";
  std::string s = std::to_string(width) + "x" + std::to_string(height) + ":";
  if (start_hand[kWhite] == start_hand[kBlack]) return s + hand_string(start_hand[kWhite], kWhite);
  return s + hand_string(start_hand[kWhite], kWhite) + "/" +
         hand_string(start_hand[kBlack], kBlack);
}

namespace {

int parse_side(std::string_view text, std::string_view what, std::string_view whole) {
  const auto side = common::whole_number(text, kMaxSide);
  const std::string where =
      "variant '" + std::string(whole) + "': " + std::string(what) + " '" + std::string(text) + "'";
  if (!side) throw ParseError(where + " is not a number from 1 to " + std::to_string(kMaxSide));
  if (*side < 1 || *side > kMaxSide)
    throw ParseError(where + " is out of range: boards have 1 to " + std::to_string(kMaxSide) +
                     " files and ranks");
  return *side;
}

Hand parse_hand(std::string_view text, Color c, std::string_view whole) {
  Hand hand{};
  if (text == "-") return hand;
  if (text.empty())
    throw ParseError("variant '" + std::string(whole) + "': empty hand (write '-' for none)");
  for (char ch : text) {
    const bool upper = std::isupper(static_cast<unsigned char>(ch));
    const auto type = piece_type_from_upper(char(std::toupper(static_cast<unsigned char>(ch))));
    if (!type)
      throw ParseError("variant '" + std::string(whole) + "': unknown piece letter '" +
                       std::string(1, ch) + "' (use N B R Q K)");
    if (upper != (c == kWhite))
      throw ParseError("variant '" + std::string(whole) + "': " +
                       (c == kWhite ? "White's hand is written in upper case"
                                    : "Black's hand is written in lower case") +
                       ", got '" + std::string(1, ch) + "'");
    if (++hand[*type] > kMaxPerType)
      throw ParseError("variant '" + std::string(whole) + "': more than 15 of one piece type");
  }
  return hand;
}

}  // namespace

Variant parse_variant(std::string_view text) {
  if (text == "drop16") return drop16_variant();
  const auto colon = text.find(':');
  const auto x = text.find('x');
  if (colon == std::string_view::npos || x == std::string_view::npos || x > colon)
    throw ParseError("variant '" + std::string(text) +
                     "': expected 'drop16', 'WxH:HAND' or 'WxH:WHITE/black' (e.g. 3x3:NBRK)");
  Variant v;
  v.width = parse_side(text.substr(0, x), "width", text);
  v.height = parse_side(text.substr(x + 1, colon - x - 1), "height", text);
  const std::string_view hands = text.substr(colon + 1);
  const auto slash = hands.find('/');
  if (slash == std::string_view::npos) {
    v.start_hand[kWhite] = parse_hand(hands, kWhite, text);
    v.start_hand[kBlack] = v.start_hand[kWhite];
  } else {
    v.start_hand[kWhite] = parse_hand(hands.substr(0, slash), kWhite, text);
    v.start_hand[kBlack] = parse_hand(hands.substr(slash + 1), kBlack, text);
  }
  return v;
}

}  // namespace drop
