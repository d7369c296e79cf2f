// drop16 query --batch FILE: one FEN a line in, one JSON line a line out, from tables only (any
// game's, tablebase/table_probe.h).
#pragma once

#include <string>

namespace app {

struct QueryBatchOptions {
  std::string variant;  // the game, or the variant the tables must be of
  std::string tables;   // directory of the variant's tables
  std::string file;     // the FENs, one a line; "-" for standard input
  bool value_only = false;
};

// Answers every line of the file in order on standard output. Throws UsageError when the file
// cannot be opened and std::runtime_error (exit status 1) after the last line when some line got
// an error object.
void run_query_batch(const QueryBatchOptions& o);

}  // namespace app
