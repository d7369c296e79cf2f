// Raised for any malformed text a user gives us (variant, FEN, move): the one class every game
// shares (rules/common/parse_error.h), so a caller catches the same type whatever it parses.
#pragma once

#include "rules/common/parse_error.h"

namespace drop {

using ParseError = common::ParseError;

}  // namespace drop
