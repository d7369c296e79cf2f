// Small text helpers the games' notation parsers share: how a character is named in an error
// message, splitting a string at separators, whole numbers (too large told apart from not a
// number) and board sizes, and whether a variant name is a game's.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace common {

// s as a whole decimal number, digits only: nullopt when it is not one (empty, a sign, a point,
// any other character). A value above `most` comes back as most + 1 whatever its length, so that
// a parser tells "more than most" (1000 or 10^20 alike) from "not a number".
inline std::optional<int> whole_number(std::string_view s, int most) {
  if (s.empty()) return std::nullopt;
  long long v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return std::nullopt;
    v = std::min<long long>(v * 10 + (ch - '0'), (long long)most + 1);
  }
  return int(v);
}

// "WxH" as its two whole numbers, each read as whole_number reads it (past `most`: most + 1);
// nullopt when the text is not of that shape.
inline std::optional<std::pair<int, int>> board_size(std::string_view s, int most) {
  const auto x = s.find('x');
  if (x == std::string_view::npos) return std::nullopt;
  const auto width = whole_number(s.substr(0, x), most);
  const auto height = whole_number(s.substr(x + 1), most);
  if (!width || !height) return std::nullopt;
  return std::pair{*width, *height};
}

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

// The words of s: its runs of characters other than white space, in order.
inline std::vector<std::string_view> words(std::string_view s) {
  return split(
      s, [](char ch) { return std::isspace(static_cast<unsigned char>(ch)) != 0; }, false);
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
