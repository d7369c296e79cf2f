// Which Dobutsu shogi (shared/games/DOBUTSU.md): the game has one variant, "dobutsu", the 3x4
// board with its eight pieces; the name is kept as a type so that it travels like every other
// game's.
#pragma once

#include <string>
#include <string_view>

namespace dobutsu {

inline constexpr std::string_view kVariantName = "dobutsu";

struct Variant {
  std::string name() const { return std::string(kVariantName); }
  bool operator==(const Variant&) const = default;
};

// True when the text names Dobutsu shogi at all ("dobutsu" or "dobutsu:..."), well formed or not.
bool names_dobutsu(std::string_view text);
// Throws ParseError for anything but "dobutsu".
Variant parse_variant(std::string_view text);

}  // namespace dobutsu
