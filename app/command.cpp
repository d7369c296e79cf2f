#include "app/command.h"

#include <charconv>
#include <iostream>

#include "app/games.h"
#include "app/resources.h"
#include "rules/drop/notation.h"
#include "rules/spock/material.h"

namespace app {

void add_position_options(CLI::App& cmd, PositionOptions& o, bool with_fen) {
  cmd.add_option("--variant", o.variant,
                 "drop16, WxH:HAND or WxH:WHITE/black (e.g. 3x3:NBRK), spock, spock:WxH:BLUE/red, "
                 "rookrace, rookrace:NxN:P or nardy")
      ->capture_default_str();
  if (with_fen) cmd.add_option("--fen", o.fen, "position (default: the variant's start)");
  cmd.add_flag("--json", o.json, "print one JSON object on stdout");
  cmd.add_flag("--quiet", o.quiet, "no progress on stderr");
}

std::string game_commands(std::string_view variant) {
  if (names_nardy(variant))
    return "Royal Nardy (--variant nardy) has moves, show, query, bearoff, endgame, nardy-match "
           "and serve";
  if (names_spock(variant))
    return "Spock (--variant " + std::string(variant) +
           ") has perft, distinct, moves, show, solve, query, verify and serve";
  if (games::names_rookrace(variant))
    return "the rook race (--variant " + std::string(variant) +
           ") has perft, distinct, moves, show, solve, verify and serve";
  return "the Drop 16 family has perft, distinct, moves, show, solve, query, verify, prove, "
         "check-proof, claims, cluster-plan and serve";
}

Setup make_setup(const PositionOptions& o, std::string_view command) {
  if (names_nardy(o.variant) || names_spock(o.variant) || games::names_rookrace(o.variant))
    throw UsageError(std::string(command) + " serves the Drop 16 family only; " +
                     game_commands(o.variant));
  return games::drop_setup(o.variant, o.fen);
}

GameSetup<spock::Game> make_spock_setup(const PositionOptions& o) {
  return games::spock_setup(o.variant, o.fen);
}

CLI::Validator unsigned_64() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || text[0] < '0' || text[0] > '9' || end != text.data() + text.size())
          return "'" + text + "' is not a whole number 0 or more";
        if (error == std::errc::result_out_of_range)
          return "'" + text + "' is more than 2^64 - 1 (18446744073709551615)";
        return {};
      },
      "UINT64");
}

void add_threads_option(CLI::App& cmd, int& threads) {
  threads = default_threads();
  cmd.add_option("--threads", threads, "worker threads (default: all cores)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
}

void add_memory_option(CLI::App& cmd, double& gb) {
  gb = double(physical_memory_mb()) * 0.75 / 1024.0;
  cmd.add_option("--memory", gb, "memory cap in GB (default: 75% of this machine)")
      ->check(CLI::Range(0.001, 1e6))
      ->capture_default_str();
}

std::uint64_t gigabytes_to_bytes(double gb) {
  return std::uint64_t(gb * double(1ull << 30));
}

void print_json(const nlohmann::json& j) {
  std::cout << j.dump() << std::endl;
}

}  // namespace app
