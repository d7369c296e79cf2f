// drop16 verify for a whole variant of a game with cycles (a Spock ladder row, a rook race): the
// variant (everything reachable from the positions it starts from) solved whole by the cyclic
// retrograde (solver/cyclic_retrograde.h), as solve does, then random positions of it searched
// again by the bounded forward search (solver/cyclic_search.h), which shares nothing with it but
// the rules, and the values and distances compared. A draw is checked as "no forced win or loss
// within L plies", L the row's longest distance: no bounded search proves more of a draw, and a
// position with a forced result has one within L.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <span>

#include "app/cyclic_search.h"
#include "app/cyclic_solve.h"
#include "app/games.h"
#include "app/resources.h"
#include "solver/cyclic_retrograde.h"
#include "solver/cyclic_search.h"
#include "solver/progress.h"
#include "tablebase/analysis_json.h"

namespace app {

namespace {

// Solves everything reachable from the roots, then re-solves random positions of it (a root and
// up to L random moves from it) with the forward search and compares. The roots take their part
// of the retrograde's three quarters of the cap.
template <typename E, typename G = typename E::Game>
void verify_reachable(const CyclicVerifyRequest& r, std::chrono::steady_clock::time_point start) {
  using Position = typename G::Position;
  const std::string name = E::normalized(r.position.variant);
  const auto whole =
      whole_variant_roots<E>(r.position.variant, r.memory_bytes / 4 * 3, "--variant");
  const G& game = *whole.game;
  const std::vector<Position>& roots = whole.positions;
  // Three quarters of the cap for the retrograde (the roots and its arrays), one for the search's
  // table.
  const std::uint64_t row_bytes = r.memory_bytes / 4 * 3;
  solver::CyclicSolveOptions options;
  options.memory_bytes = row_bytes - roots.size() * sizeof(Position);
  options.show_progress = !r.position.quiet;
  std::optional<solver::CyclicRetrograde<G>> solved;
  try {
    solved.emplace(game, std::span<const Position>(roots), options);
  } catch (const solver::CyclicMemoryError& e) {
    throw UsageError(std::string(e.what()) + " (raise --memory)");
  }
  const auto& report = solved->report();
  const int longest = std::max(report.longest_win, report.longest_loss);

  solver::CyclicSearch<G> search(game, r.memory_bytes / 4);
  std::mt19937_64 rng(r.seed);
  std::uint64_t mismatches = 0, wins = 0, draws = 0, losses = 0;
  nlohmann::ordered_json first_mismatch;
  solver::Progress progress("verify", r.samples, "samples", !r.position.quiet);
  for (std::uint64_t n = 0; n < r.samples; ++n) {
    // A root, then up to L random moves from it: positions play reaches, all of which the
    // retrograde solved. The walk plays only moves that do not end the game (so that few samples
    // are over already) and stops where every move would.
    Position p = roots[rng() % roots.size()];
    typename G::MoveList moves;
    for (int plies = int(rng() % std::uint64_t(longest + 1)); plies > 0; --plies) {
      game.generate(p, moves);
      const int first = moves.empty() ? 0 : int(rng() % std::uint64_t(moves.size()));
      bool moved = false;
      for (int k = 0; k < moves.size() && !moved; ++k) {
        const typename G::Move move = moves[(first + k) % moves.size()];
        const auto undo = game.make(p, move);
        moved = !game.is_terminal(p);
        if (!moved) game.unmake(p, move, undo);
      }
      if (!moved) break;
    }
    const solver::WdlValue truth = *solved->value(p);
    (truth.wdl == solver::Wdl::win ? wins : truth.wdl == solver::Wdl::draw ? draws : losses)++;
    const auto found = search.solve(p, {longest, 0});
    if (found.stop == solver::SearchStop::memory)
      throw std::runtime_error(E::fen(game, p) + ": the forward search needs more than " +
                               std::to_string((r.memory_bytes / 4) >> 20) +
                               " MB for this position alone (a quarter of --memory); raise it");
    const std::optional<solver::WdlValue> expected =
        truth.wdl == solver::Wdl::draw ? std::nullopt : std::optional(truth);
    if (found.value != expected && mismatches++ == 0)
      first_mismatch = {{"fen", E::fen(game, p)},
                        {"retrograde", tablebase::value_json(truth)},
                        {"search", tablebase::value_json(found.value)}};
    progress.advance();
    progress.add_to_rate(1);
  }

  nlohmann::ordered_json j;
  j["variant"] = name;
  j["samples"] = r.samples;
  j["seed"] = r.seed;
  j["method"] = "search";
  j["positions"] = report.positions;
  j["longest_distance"] = longest;
  j["sampled"] = {{"wins", wins}, {"draws", draws}, {"losses", losses}};
  j["mismatches"] = mismatches;
  if (mismatches) j["first_mismatch"] = first_mismatch;
  j["search_nodes"] = search.nodes();
  j["table_clears"] = search.table_clears();
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  j["peak_memory_mb"] = peak_memory_mb();
  if (r.position.json)
    std::cout << j.dump() << std::endl;
  else
    std::cout << r.samples << " random positions of " << name
              << " checked against the forward search (draws: nothing forced within " << longest
              << " plies): " << mismatches << " mismatches" << std::endl;
  if (mismatches)
    throw std::runtime_error(std::to_string(mismatches) + " of " + std::to_string(r.samples) +
                             " positions differ between the retrograde and the forward search, " +
                             "the first " + first_mismatch["fen"].get<std::string>());
}

}  // namespace

void run_cyclic_verify(const CyclicVerifyRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  with_capability<registry::Solver::reachable_retrograde>(
      r.position.variant, [&](auto e) { verify_reachable<decltype(e)>(r, start); });
}

}  // namespace app
