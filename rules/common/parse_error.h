// Raised for any malformed text a user gives us (variant, FEN, move), whatever the game. The
// message says what and where; the command line turns it into one line on stderr and exit status 2.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace common {

class ParseError : public std::invalid_argument {
 public:
  explicit ParseError(const std::string& what) : std::invalid_argument(what) {}
};

// Throws the one line every parser's message is: "KIND 'TEXT': WHAT", e.g. "variant 'x': ...".
[[noreturn]] inline void refuse(std::string_view kind, std::string_view text,
                                const std::string& what) {
  std::string message(kind);
  message.append(" '").append(text).append("': ").append(what);
  throw ParseError(message);
}

}  // namespace common
