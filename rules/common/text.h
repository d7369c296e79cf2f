// Small text helpers the games' notation parsers share: how a character is named in an error
// message, and splitting a string at separators.
#pragma once

#include <cctype>
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

}  // namespace common
