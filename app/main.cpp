// drop16: solver and retrograde analyzer for Drop 16 and its variants. Subcommands only parse,
// call the library and print; see DESIGN.md for the contract.
#include <cstdio>
#include <exception>

#include "app/command.h"
#include "rules/drop/parse_error.h"

int main(int argc, char** argv) {
  CLI::App app{"drop16: solver and retrograde analyzer for Drop 16 and its variants"};
  app.require_subcommand(1);
  app::register_perft(app);
  app::register_distinct(app);
  app::register_moves(app);
  app::register_show(app);
  app::register_solve(app);
  app::register_query(app);
  app::register_verify(app);
  app::register_prove(app);
  app::register_check_proof(app);
  app::register_claims(app);
  app::register_serve(app);
  app::register_bearoff(app);
  app::register_endgame(app);
  app::register_cluster_plan(app);
  app::register_nardy_match(app);
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
