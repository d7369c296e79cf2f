#include "app/command.h"

#include <iostream>

#include "rules/drop/notation.h"

namespace app {

void add_position_options(CLI::App& cmd, PositionOptions& o, bool with_fen) {
  cmd.add_option("--variant", o.variant, "drop16, WxH:HAND or WxH:WHITE/black (e.g. 3x3:NBRK)")
      ->capture_default_str();
  if (with_fen) cmd.add_option("--fen", o.fen, "position (default: the variant's start)");
  cmd.add_flag("--json", o.json, "print one JSON object on stdout");
  cmd.add_flag("--quiet", o.quiet, "no progress on stderr");
}

Setup make_setup(const PositionOptions& o) {
  Setup s;
  s.game = std::make_unique<drop::Game>(drop::parse_variant(o.variant));
  s.position = o.fen.empty() ? s.game->start() : drop::parse_fen(*s.game, o.fen);
  return s;
}

void add_threads_option(CLI::App& cmd, int& threads) {
  threads = default_threads();
  cmd.add_option("--threads", threads, "worker threads (default: all cores)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
}

void print_json(const nlohmann::json& j) {
  std::cout << j.dump() << std::endl;
}

}  // namespace app
