// Small text helpers the games' notation parsers share: how a character is named in an error
// message, splitting a string at separators, small numbers, and whether a variant name is a game's.
#pragma once

#include <cctype>
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

namespace common {

// A character for an error message: 'x' when printable, else its byte value.
inline std::string quoted(char ch) {
  if (std::isprint(static_cast<unsigned char>(ch))) return std::string{'\'', ch, '\''};
  return "byte " + std::to_string(static_cast<unsigned char>(ch));
}

// The pieces of s between characters for which is_separator holds; empty pieces are kept only
// when keep_empty.
std::vector<std::string_view> split(std::string_view s, auto is_separator, bool keep_empty) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || is_separator(s[i])) {
      if (keep_empty || i > start) out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

// A whole decimal number of 1 to `digits` digits, or false (nothing is written to `out` then).
inline bool read_number(std::string_view s, int digits, int& out) {
  if (s.empty() || int(s.size()) > digits) return false;
  for (char ch : s)
    if (ch < '0' || ch > '9') return false;
  std::from_chars(s.data(), s.data() + s.size(), out);
  return true;
}

// Whether a variant name names the game `game` at all, well formed or not: `game` itself, or
// `game` followed by ':' and anything.
inline bool names_game(std::string_view text, std::string_view game) {
  return text.substr(0, game.size()) == game &&
         (text.size() == game.size() || text[game.size()] == ':');
}

}  // namespace common
