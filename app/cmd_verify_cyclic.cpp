// drop16 verify for a whole variant of a game with cycles (a Spock ladder row, a rook race): the
// variant (everything reachable from the positions it starts from) solved whole by the cyclic
// retrograde (solver/cyclic_retrograde.h), as solve does, or its tables (--tables DIR: a keyed
// table, tablebase/keyed_tables.h, or loopy tier tables, tablebase/loopy_tables.h), then random
// positions of it checked two ways:
// - against their children's values from the same source (tablebase/wdl_analysis.h's
//   check_against_children): a win is 1 + the least distance of its losing children, a loss 1 +
//   the greatest when all win, a draw has no losing child and a drawn one. Cheap, and the only
//   check a draw gets locally: it finds a flipped or mislabelled value wherever it is;
// - unless --children, against the bounded forward search (solver/cyclic_search.h), which shares
//   nothing with the retrograde but the rules: the values and distances compared, a draw as "no
//   forced win or loss within L plies", L the variant's longest distance (no bounded search
//   proves more of a draw, and a position with a forced result has one within L).
#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <span>

#include "app/cyclic_search.h"
#include "app/cyclic_solve.h"
#include "app/games.h"
#include "app/resources.h"
#include "app/tier_digests.h"
#include "solver/cyclic_retrograde.h"
#include "solver/cyclic_search.h"
#include "solver/progress.h"
#include "tablebase/analysis_json.h"
#include "tablebase/game_tables.h"
#include "tablebase/keyed_tables.h"
#include "tablebase/loopy_verify.h"
#include "tablebase/wdl_analysis.h"

namespace app {

namespace {

// The values checked: a solve in memory or a table file, and what it holds.
struct Source {
  std::string name;  // "solved in memory" or the table file
  std::uint64_t positions = 0;
  int longest = 0;  // the greatest distance of a win or a loss
};

// Checks sample after sample against the children (always) and the forward search (unless
// --children), and reports. `probe(canonical key)` gives the source's values.
template <typename E, typename Probe, typename G = typename E::Game>
class SampleChecker {
 public:
  SampleChecker(const G& game, const CyclicVerifyRequest& r, const Source& source, Probe probe,
                std::string variant, std::uint64_t samples)
      : game_(game),
        request_(r),
        source_(source),
        probe_(std::move(probe)),
        search_bytes_(r.children ? 0 : r.memory_bytes / 4),
        progress_("verify", samples, "samples", !r.position.quiet),
        variant_(std::move(variant)) {
    if (!r.children) search_.emplace(game, search_bytes_);
  }

  void check(const typename G::Position& p) {
    ++samples_;
    const auto local = tablebase::check_against_children(game_, p, probe_);
    if (!local) {  // only a table can miss a position: the retrograde holds every child
      if (mismatches() == 0)
        first_mismatch_ = {{"fen", E::fen(game_, p)},
                           {"check", "children"},
                           {"fault", "a child of this position is not in the table"}};
      ++children_mismatches_;
      advance();
      return;
    }
    const solver::WdlValue truth = local->stored;
    (truth.wdl == solver::Wdl::win ? wins_ : truth.wdl == solver::Wdl::draw ? draws_ : losses_)++;
    if (!local->agrees()) {
      if (mismatches() == 0)
        first_mismatch_ = {{"fen", E::fen(game_, p)},
                           {"check", "children"},
                           {"stored", tablebase::value_json(truth)},
                           {"from_children", tablebase::value_json(local->from_children)}};
      ++children_mismatches_;
    }
    if (search_) {
      const auto found = search_->solve(p, {source_.longest, 0});
      if (found.stop == solver::SearchStop::memory)
        throw std::runtime_error(E::fen(game_, p) + ": the forward search needs more than " +
                                 std::to_string(search_bytes_ >> 20) +
                                 " MB for this position alone (a quarter of --memory); raise it, "
                                 "or check with --children");
      const std::optional<solver::WdlValue> expected =
          truth.wdl == solver::Wdl::draw ? std::nullopt : std::optional(truth);
      if (found.value != expected) {
        if (mismatches() == 0)
          first_mismatch_ = {{"fen", E::fen(game_, p)},
                             {"check", "search"},
                             {"stored", tablebase::value_json(truth)},
                             {"search", tablebase::value_json(found.value)}};
        ++search_mismatches_;
      }
    }
    advance();
  }

  // Prints the figures; throws (exit status 1) on a mismatch.
  void report(std::chrono::steady_clock::time_point start) const {
    nlohmann::ordered_json j;
    j["variant"] = variant_;
    j["source"] = source_.name;
    j["samples"] = samples_;
    j["seed"] = request_.seed;
    j["method"] = search_ ? "children and search" : "children";
    j["positions"] = source_.positions;
    j["longest_distance"] = source_.longest;
    j["sampled"] = {{"wins", wins_}, {"draws", draws_}, {"losses", losses_}};
    j["mismatches"] = mismatches();
    j["children_mismatches"] = children_mismatches_;
    if (search_) j["search_mismatches"] = search_mismatches_;
    if (mismatches()) j["first_mismatch"] = first_mismatch_;
    if (search_) {
      j["search_nodes"] = search_->nodes();
      j["table_clears"] = search_->table_clears();
    }
    j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    j["peak_memory_mb"] = peak_memory_mb();
    const std::string against =
        search_ ? "their children's values and the forward search (draws: nothing forced within " +
                      std::to_string(source_.longest) + " plies)"
                : std::string("their children's values");
    if (request_.position.json)
      std::cout << j.dump() << std::endl;
    else
      std::cout << samples_ << " positions of " << variant_ << " (" << source_.name
                << ") checked against " << against << ": " << mismatches() << " mismatches"
                << std::endl;
    if (mismatches())
      throw std::runtime_error(std::to_string(mismatches()) + " of " + std::to_string(samples_) +
                               " positions fail the " +
                               first_mismatch_["check"].get<std::string>() + " check, the first " +
                               first_mismatch_["fen"].get<std::string>());
  }

 private:
  std::uint64_t mismatches() const { return children_mismatches_ + search_mismatches_; }
  void advance() {
    progress_.advance();
    progress_.add_to_rate(1);
  }

  const G& game_;
  const CyclicVerifyRequest& request_;
  const Source& source_;
  Probe probe_;
  std::uint64_t search_bytes_;
  std::optional<solver::CyclicSearch<G>> search_;
  solver::Progress progress_;
  std::string variant_;
  std::uint64_t samples_ = 0, wins_ = 0, draws_ = 0, losses_ = 0;
  std::uint64_t children_mismatches_ = 0, search_mismatches_ = 0;
  nlohmann::ordered_json first_mismatch_;
};

// Solves everything reachable from the variant's roots, then checks random positions of it (a
// root and up to L random moves from it). The retrograde gets three quarters of the cap beside
// the forward search's quarter, or all of it with --children.
template <typename E, typename G = typename E::Game>
void verify_reachable(const CyclicVerifyRequest& r, std::chrono::steady_clock::time_point start) {
  using Position = typename G::Position;
  const std::uint64_t row_bytes = r.children ? r.memory_bytes : r.memory_bytes / 4 * 3;
  const auto whole = whole_variant_roots<E>(r.position.variant, row_bytes, "--variant");
  const G& game = *whole.game;
  const std::vector<Position>& roots = whole.positions;
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
  const Source source{"solved in memory", report.positions,
                      std::max(report.longest_win, report.longest_loss)};
  const auto probe = [&](const common::Key& k) { return solved->value_of_key(k); };
  SampleChecker<E, decltype(probe)> checker(game, r, source, probe,
                                            E::normalized(r.position.variant), r.samples);
  std::mt19937_64 rng(r.seed);
  for (std::uint64_t n = 0; n < r.samples; ++n) {
    // A root, then up to L random moves from it: positions play reaches, all of which the
    // retrograde solved. The walk plays only moves that do not end the game (so that few samples
    // are over already) and stops where every move would.
    Position p = roots[rng() % roots.size()];
    typename G::MoveList moves;
    for (int plies = int(rng() % std::uint64_t(source.longest + 1)); plies > 0; --plies) {
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
    checker.check(p);
  }
  checker.report(start);
}

// A whole variant's keyed table (DIR/<game>.wdl): --samples of its entries drawn uniformly (every
// entry when the file holds no more), each the canonical representative from_key gives, checked
// against the file.
template <registry::KeyedEntry E, typename G = typename E::Game>
void verify_keyed_table(const CyclicVerifyRequest& r, std::chrono::steady_clock::time_point start) {
  whole_variant_root_count<E>(r.position.variant, "--variant");
  require_keyed_table<E>(r.tables);
  const std::string name = E::normalized(r.position.variant);
  tablebase::WdlTable table =
      tablebase::open_keyed_table(r.tables, E::info.id, E::kKeyFormat, name);
  const std::unique_ptr<G> whole_game = E::whole_game(r.position.variant);
  const G& game = *whole_game;
  const auto& info = table.info();
  const Source source{tablebase::keyed_table_file(r.tables, E::info.id).string(), info.positions,
                      int(std::max(info.longest_win, info.longest_loss))};
  // The entries to check by their rank in key order, read in one pass (every block's checksum
  // and the header's counts checked on the way), before any probe.
  std::vector<std::uint64_t> ranks;
  if (r.samples >= info.positions) {
    ranks.resize(info.positions);
    for (std::uint64_t i = 0; i < info.positions; ++i) ranks[i] = i;
  } else {
    std::mt19937_64 rng(r.seed);
    std::uniform_int_distribution<std::uint64_t> any(0, info.positions - 1);
    for (std::uint64_t n = 0; n < r.samples; ++n) ranks.push_back(any(rng));
    std::sort(ranks.begin(), ranks.end());
  }
  std::vector<common::Key> keys;
  keys.reserve(ranks.size());
  std::uint64_t rank = 0;
  auto next = ranks.begin();
  table.for_each([&](const common::Key& k, solver::WdlValue) {
    for (; next != ranks.end() && *next == rank; ++next) keys.push_back(k);
    ++rank;
  });
  const auto probe = [&](const common::Key& k) { return table.probe(k); };
  SampleChecker<E, decltype(probe)> checker(game, r, source, probe, name, keys.size());
  for (const common::Key& k : keys) checker.check(game.from_key(k));
  checker.report(start);
}

// A whole variant's loopy tier tables in DIR: every tier's file checked when opened, the counts
// and the longest distance taken over the reached entries (read a tier at a time), then --samples
// entries drawn uniformly from the reached ones (every reached entry once when --samples is at
// least the tables' entries), each the position the space stores there, checked against the files.
template <registry::WholeVariantEntry E>
void verify_loopy_tables(const CyclicVerifyRequest& r,
                         std::chrono::steady_clock::time_point start) {
  whole_variant_root_count<E>(r.position.variant, "--variant");
  const std::string name = E::normalized(r.position.variant);
  tablebase::LoopyGameTables<E> tables(r.tables, name);
  const auto& space = tables.space();
  const tablebase::LoopyTally counts = tablebase::tally_loopy_tables(
      space, r.tables, tablebase::kTallyRunEntries, !r.position.quiet);
  const Source source{r.tables, counts.positions,
                      std::max(counts.longest_win, counts.longest_loss)};
  tablebase::LoopyEntryDraw draw(tables.tables(), r.seed);
  std::vector<tablebase::Location> entries;
  if (r.samples >= draw.entries()) {
    for (int t = 0; t < space.tier_count(); ++t)
      for (std::uint64_t i = 0; i < space.tier_size(t); ++i)
        if (tables.tables().reached({t, i})) entries.push_back({t, i});
  } else {
    for (std::uint64_t n = 0; n < r.samples; ++n) entries.push_back(draw());
  }
  const auto probe = [&](const common::Key& k) { return tables.probe(k); };
  SampleChecker<E, decltype(probe)> checker(tables.game(), r, source, probe, name, entries.size());
  for (const tablebase::Location& at : entries) checker.check(space.unrank(at.tier, at.index));
  checker.report(start);
}

// verify --digest of loopy tier tables: every finished tier's codes (loopy_tier_digest).
template <registry::WholeVariantEntry E>
void digest_loopy_tables(const CyclicVerifyRequest& r) {
  whole_variant_root_count<E>(r.position.variant, "--variant");
  const std::string name = E::normalized(r.position.variant);
  tablebase::LoopyGameTables<E> tables(r.tables, name);
  const auto& space = tables.space();
  const auto table = [&](int t) {
    return tablebase::LoopyTableName{r.tables, name, space.index_scheme(), space.tier_name(t)};
  };
  report_tier_digests({name, space.tier_count(), [&](int t) { return space.tier_name(t); },
                       [&](int t) { return space.tier_size(t); },
                       [&](int t) -> std::optional<std::uint64_t> {
                         if (!tablebase::loopy_tier_present(table(t), space.tier_size(t)))
                           return std::nullopt;
                         return tablebase::loopy_tier_digest(table(t), space.tier_size(t));
                       }},
                      r.tables, r.against, r.position.json, r.position.quiet);
}

}  // namespace

void run_cyclic_verify(const CyclicVerifyRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  with_capability<registry::Solver::reachable_retrograde>(r.position.variant, [&](auto e) {
    using E = decltype(e);
    constexpr bool loopy = E::info.tables.has(registry::TableFormat::loopy_tiers);
    if (r.digest) {
      if constexpr (loopy)
        if (!r.tables.empty() && tablebase::holds_loopy_tables<E>(r.tables))
          return digest_loopy_tables<E>(r);
      throw UsageError(r.tables.empty()
                           ? "--digest: checks tier tables; give their directory (--tables DIR)"
                           : "--digest: for tier tables; --tables " + r.tables + " holds none");
    }
    if (r.tables.empty())
      verify_reachable<E>(r, start);
    else if constexpr (loopy && !registry::KeyedEntry<E>)
      verify_loopy_tables<E>(r, start);
    else if constexpr (registry::KeyedEntry<E>) {
      // A game with both formats: the one the directory holds.
      if (tablebase::holds_loopy_tables<E>(r.tables))
        verify_loopy_tables<E>(r, start);
      else
        verify_keyed_table<E>(r, start);
    } else
      throw std::logic_error(std::string(E::info.title) + " has no tables of whole variants");
  });
}

}  // namespace app
