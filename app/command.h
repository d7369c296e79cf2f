// The pieces every `drop16` subcommand shares: the variant and position options, JSON or text
// output, and the error convention (bad input: one line on stderr, exit 2; other failure: exit 1).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

#include "rules/drop/game.h"
#include "rules/game_by_name.h"

namespace app {

// Thrown for input that is well-formed but unusable (a depth out of range, a table that does not
// fit the memory cap). Reported like a ParseError: one line, exit status 2.
class UsageError : public std::invalid_argument {
 public:
  explicit UsageError(const std::string& what) : std::invalid_argument(what) {}
};

// --variant, --fen, --json, --quiet: added to a subcommand by add_position_options.
struct PositionOptions {
  std::string variant = "drop16";
  std::optional<std::string> fen;  // none: the variant's start position; "" is bad input
  bool json = false;
  bool quiet = false;
};
void add_position_options(CLI::App& cmd, PositionOptions& o, bool with_fen = true);

// A game and a position of it, as the options name them.
template <typename G>
using GameSetup = games::GameSetup<G>;
using Setup = GameSetup<drop::Game>;
// For a message refusing a command to the game a --variant names: that game and the commands
// that serve it, e.g. "Royal Nardy (--variant nardy) has moves, show, query, bearoff, endgame,
// nardy-match and serve". The Drop 16 family's when the name is none of the other games'.
std::string game_commands(std::string_view variant);
// For the commands that serve the Drop 16 family only (`command`, named in the message); throws
// ParseError on bad text and UsageError for a variant of another game (games.h dispatches the
// commands that serve all games).
Setup make_setup(const PositionOptions& o, std::string_view command);

// A check for options read into 64-bit unsigned integers (seeds, counts): digits only, at most
// 2^64 - 1. CLI11 alone reads "-1" as 2^64 - 1 and saturates a number too large for the type.
CLI::Validator unsigned_64();

// --threads N (default: all cores), checked to be at least 1.
void add_threads_option(CLI::App& cmd, int& threads);
inline int default_threads() {
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

// --memory GB (default: 75% of this machine), a cap for the commands that hold big tables.
void add_memory_option(CLI::App& cmd, double& gb);
std::uint64_t gigabytes_to_bytes(double gb);

void print_json(const nlohmann::json& j);

// Subcommands; each adds itself to the app and sets its callback.
void register_perft(CLI::App& app);
void register_distinct(CLI::App& app);
void register_moves(CLI::App& app);
void register_show(CLI::App& app);
void register_solve(CLI::App& app);
void register_query(CLI::App& app);
void register_verify(CLI::App& app);
void register_prove(CLI::App& app);
void register_check_proof(CLI::App& app);
void register_claims(CLI::App& app);
void register_serve(CLI::App& app);
void register_bearoff(CLI::App& app);
void register_endgame(CLI::App& app);
void register_cluster_plan(CLI::App& app);
void register_nardy_match(CLI::App& app);

}  // namespace app
