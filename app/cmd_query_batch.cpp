// drop16 query --batch: reads lines and prints; the probing is tablebase::TableProbe's (any game's
// tables: the Drop 16 family's tiers through the batch prober, a whole variant's keyed table or
// loopy tier tables).
//   each line         {"line": N, <the query --json analysis object>}
//   with --value-only {"line": N, "value": "win"|"draw"|"loss", "dte": D or null for a draw}
//   a line it cannot answer (bad FEN, a position the tables do not hold) {"line": N, "error":
//   "..."}
// Blank lines and lines starting with '#' are skipped (their numbers still count). Output is
// buffered, and flushed whenever the input has nothing more buffered, so a program that writes a
// line and waits for the answer gets it.
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "app/command.h"
#include "app/query_batch.h"
#include "rules/registry.h"
#include "tablebase/table_probe.h"

namespace app {

namespace {

std::string_view trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

template <typename E>
void answer_lines(const QueryBatchOptions& o) {
  tablebase::TableProbe<E> probe(o.variant, o.tables);
  std::ifstream file;
  if (o.file != "-") {
    file.open(o.file);
    if (!file) throw UsageError("--batch " + o.file + ": cannot open");
  }
  std::istream& in = o.file == "-" ? std::cin : file;
  std::ios::sync_with_stdio(false);
  std::uint64_t line_number = 0, asked = 0, failed = 0, first_failed = 0;
  std::string line;
  for (;;) {
    if (in.rdbuf()->in_avail() <= 0) std::cout.flush();
    if (!std::getline(in, line)) break;
    ++line_number;
    const std::string_view fen = trimmed(line);
    if (fen.empty() || fen.front() == '#') continue;
    ++asked;
    nlohmann::ordered_json j;
    j["line"] = line_number;
    try {
      const auto answer = probe.probe(E::parse_fen(probe.game(), fen), !o.value_only);
      if (o.value_only)
        j.update(tablebase::value_json(answer.value));
      else
        j.update(tablebase::answer_json<E>(probe.variant(), probe.game(), answer));
    } catch (const std::invalid_argument& e) {  // ParseError, a position the tables do not hold
      j["error"] = e.what();
      if (failed++ == 0) first_failed = line_number;
    }
    std::cout << j.dump() << '\n';
  }
  std::cout.flush();
  if (in.bad()) throw std::runtime_error("--batch " + o.file + ": read error");
  if (failed)
    throw std::runtime_error(std::to_string(failed) + " of " + std::to_string(asked) +
                             " positions could not be answered (the first: line " +
                             std::to_string(first_failed) + ")");
}

}  // namespace

void run_query_batch(const QueryBatchOptions& o) {
  registry::visit(o.variant, [&](auto e) {
    using E = decltype(e);
    if constexpr (tablebase::HasTableProbe<E>::value)
      answer_lines<E>(o);
    else
      throw UsageError("--batch: " + std::string(E::info.title) + " has no tables on disk");
  });
}

}  // namespace app
