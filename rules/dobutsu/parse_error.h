// Dobutsu shogi's parsers raise the error every game shares (rules/common/parse_error.h).
#pragma once

#include "rules/common/parse_error.h"

namespace dobutsu {

using ParseError = common::ParseError;

}  // namespace dobutsu
