// drop16: solver and retrograde analyzer for the games of the registry (rules/registry.h).
// Subcommands only parse, call the library and print; see DESIGN.md for the contract.
#include <cstdio>
#include <exception>
#include <string>

#include "app/command.h"
#include "rules/registry.h"

namespace {

// "Drop 16, Spock, the rook race and Royal Nardy": the registry's games.
std::string game_titles() {
  std::string out;
  for (std::size_t i = 0; i < registry::kGames.size(); ++i)
    out += std::string(i == 0                             ? ""
                       : i + 1 == registry::kGames.size() ? " and "
                                                          : ", ") +
           std::string(registry::kGames[i].title);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"drop16: solver and retrograde analyzer for " + game_titles() +
               " (drop16 games lists them and what each supports)"};
  app.require_subcommand(1);
  app::register_games(app);
  app::register_perft(app);
  app::register_distinct(app);
  app::register_moves(app);
  app::register_show(app);
  app::register_solve(app);
  app::register_query(app);
  app::register_verify(app);
  app::register_serve(app);
  for (const app::GameCommand& c : app::game_commands()) c.add(app);
  // CLI11 would only say "a subcommand is required"; name the word it did not know.
  if (argc > 1 && argv[1][0] != '-') {
    try {
      app.get_subcommand(argv[1]);
    } catch (const CLI::OptionNotFound&) {
      std::fprintf(stderr, "drop16: unknown command '%s' (see drop16 --help)\n", argv[1]);
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    try {
      if (app::print_game_help(app)) return 0;
    } catch (const std::invalid_argument& bad) {  // a variant no game claims
      std::fprintf(stderr, "drop16: %s\n", bad.what());
      return 2;
    }
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "drop16: %s (see drop16 --help)\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {  // ParseError, UsageError
    std::fprintf(stderr, "drop16: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "drop16: out of memory (lower --hash or --memory)\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "drop16: %s\n", e.what());
    return 1;
  }
  return 0;
}
