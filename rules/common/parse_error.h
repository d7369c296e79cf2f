// Raised for any malformed text a user gives us (variant, FEN, move), whatever the game. The
// message says what and where; the command line turns it into one line on stderr and exit status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace common {

class ParseError : public std::invalid_argument {
 public:
  explicit ParseError(const std::string& what) : std::invalid_argument(what) {}
};

}  // namespace common
