#include "rules/drop/claims/drop_phase.h"

#include <chrono>
#include <string>
#include <vector>

#include "rules/drop/claims/limits.h"
#include "rules/drop/drops_only.h"
#include "rules/drop/placements.h"
#include "solver/claims_count.h"
#include "solver/claims_orbits.h"
#include "solver/distinct_positions.h"
#include "solver/hashed_perft.h"
#include "solver/parallel_perft.h"
#include "solver/perft_table.h"
#include "solver/progress.h"

namespace solver::claims {

namespace {

// What a symmetry of the board does, told by where it sends a1 and b1.
std::string symmetry_name(const drop::Geometry& g, const drop::Symmetry& s) {
  const int w = g.width() - 1, h = g.height() - 1;
  if (w < 1) return s.image[0] == 0 ? "identity" : "top-bottom mirror";
  const int a1 = s.image[g.square(0, 0)], b1 = s.image[g.square(1, 0)];
  if (a1 == g.square(0, 0)) return b1 == g.square(1, 0) ? "identity" : "diagonal mirror";
  if (a1 == g.square(w, 0)) return b1 == g.square(w - 1, 0) ? "left-right mirror" : "quarter turn";
  if (a1 == g.square(0, h)) return b1 == g.square(1, h) ? "top-bottom mirror" : "quarter turn";
  return b1 == g.square(w - 1, h) ? "half turn" : "anti-diagonal mirror";
}

std::vector<int> hand_counts(const drop::Hand& h) {
  return std::vector<int>(h.begin(), h.end());
}

// The last ply k whose predicted children (positions at k-1 times a bound on their moves) stay
// within the budget.
int plies_within_budget(const json& counts, int last, const drop::Variant& v) {
  int types = 0;
  for (drop::Color c : {drop::kWhite, drop::kBlack})
    types = std::max(types, drop::distinct_types(v.start_hand[c]));
  int ply = 0;
  while (ply < last) {
    const double parents = to_double(count_at(counts, ply));
    if (parents * double(v.squares() - ply) * types > kDropsOnlyChildBudget) break;
    ++ply;
  }
  return ply;
}

}  // namespace

json drop_phase(const drop::Game& game, const ClaimsSettings& o) {
  const drop::Variant& v = game.variant();
  const int last = drop::last_drop_ply(v);
  const int n = v.squares();
  const auto group = drop::square_permutations(game.geometry());
  std::vector<Count> raw, orbits, burnside, colourings, sequences, per_position;
  std::vector<int> pairs;
  std::uint64_t total_pairs = 0;
  for (int k = 0; k <= last; ++k) total_pairs += drop::dropped_after(v, k).size();
  Progress progress("canonical forms by ply", total_pairs, "pairs of dropped hands", !o.quiet);
  const bool full = last == n;
  const drop::Color next_mover = drop::Color(last % 2);
  const auto capture_weights = drop::full_board_capture_weights(game.geometry(), next_mover);
  Count capture_sum = 0;
  bool checks_pass = true;
  // At the last ply: the colourings each symmetry fixes (Burnside's terms), and the time taken.
  std::vector<Count> fixed_at_last(group.size(), 0);
  double last_ply_seconds = 0;
  for (int k = 0; k <= last; ++k) {
    Count r = 0, orb = 0, burn = 0, col = 0;
    const auto dropped = drop::dropped_after(v, k);
    const auto ply_start = std::chrono::steady_clock::now();
    for (const drop::DroppedPieces& d : dropped) {
      const auto m = drop::colour_multiplicities(v, d);
      if (k == last)
        for (std::size_t g = 0; g < group.size(); ++g)
          fixed_at_last[g] = checked_add(fixed_at_last[g], count_fixed_colourings(group[g], m));
      r = checked_add(r, multinomial(m));
      burn = checked_add(burn, count_orbits_burnside(group, m));
      CanonicalEnumerationOptions options;
      options.threads = o.threads;
      const bool weigh = full && k == last;
      const auto counts = enumerate_canonical_colourings(
          group, m, weigh ? capture_weights : PointWeights{}, options);
      orb = checked_add(orb, counts.orbits);
      col = checked_add(col, counts.colourings);
      if (weigh) capture_sum = checked_add(capture_sum, counts.weight_sum);
      progress.advance();
      progress.add_to_rate(1);
    }
    if (k == last)
      last_ply_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - ply_start).count();
    const int white = (k + 1) / 2, black = k / 2;
    // Each side's drops fill its squares in any order: white! * black! drop sequences per position.
    const Count orders = checked_mul(factorial(white), factorial(black));
    // Closed form: the squares in the order they fill, times each side's order of piece types.
    Count seq = falling_factorial(n, k);
    seq = checked_mul(seq, words_from_multiset(hand_counts(v.start_hand[drop::kWhite]), white));
    seq = checked_mul(seq, words_from_multiset(hand_counts(v.start_hand[drop::kBlack]), black));
    checks_pass &= r == col && orb == burn && seq == checked_mul(r, orders);
    raw.push_back(r);
    orbits.push_back(orb);
    burnside.push_back(burn);
    colourings.push_back(col);
    sequences.push_back(seq);
    per_position.push_back(orders);
    pairs.push_back(int(dropped.size()));
  }
  json j;
  j["last_drop_ply"] = last;
  j["board_full"] = full;
  j["dropped_hand_pairs"] = pairs;
  j["positions"] = count_strings(raw);
  j["positions_by_canonical_forms"] = count_strings(colourings);
  j["up_to_symmetry"] = count_strings(orbits);
  j["up_to_symmetry_burnside"] = count_strings(burnside);
  j["sequences"] = count_strings(sequences);
  j["sequences_per_position"] = count_strings(per_position);
  j["checks_pass"] = checks_pass;
  j["burnside_fixed_at_last_ply"] = count_strings(fixed_at_last);
  json names = json::array();
  for (const drop::Symmetry& symmetry : game.geometry().symmetries())
    names.push_back(symmetry_name(game.geometry(), symmetry));
  j["symmetry_names"] = names;
  j["last_ply_seconds"] = last_ply_seconds;
  if (full) {
    // Every (last+1)-ply sequence that starts with the drops: a capture from a full board.
    j["full_board_captures_sum"] = to_decimal(capture_sum);
    j["next_ply_sequences"] = to_decimal(checked_mul(capture_sum, per_position.back()));
  }
  return j;
}

json drop_phase_breadth_first(const drop::Game& game, const json& closed, const ClaimsSettings& o) {
  if (!game.keys_fit()) return without_exact_keys();
  json j;
  const drop::DropsOnlyGame drops(game);
  const int last = closed["last_drop_ply"].get<int>();
  bool match = true;
  for (const bool symmetric : {false, true}) {
    const char* name = symmetric ? "up_to_symmetry" : "positions";
    const int plies = plies_within_budget(closed[name], last, game.variant());
    const auto counts =
        count_distinct_positions(drops, drops.start(), plies, o.memory_mb << 20, o.threads,
                                 !o.quiet, [&](const drop::Position& p) {
                                   return symmetric ? game.symmetric_key(p) : game.raw_key(p);
                                 });
    std::vector<std::uint64_t> found = counts.per_ply;
    if (!counts.complete) found.pop_back();  // the ply the memory cap interrupted
    for (std::size_t k = 0; k < found.size(); ++k)
      match &= Count(found[k]) == count_at(closed[name], k);
    j[name] = found;
  }
  j["match"] = match;
  return j;
}

json drop_phase_perft(const drop::Game& game, const json& closed, const ClaimsSettings& o) {
  if (!game.keys_fit()) return without_exact_keys();
  json j;
  const drop::DropsOnlyGame drops(game);
  const int depth = plies_within_budget(closed["up_to_symmetry"],
                                        closed["last_drop_ply"].get<int>(), game.variant());
  PerftTable<drop::Key> table(std::min<std::uint64_t>(o.memory_mb << 20, 1ull << 30) / 2);
  std::vector<std::uint64_t> nodes{1};
  bool match = true;
  for (int d = 1; d <= depth; ++d) {
    Progress progress("drops-only perft " + std::to_string(d), 0, "nodes", !o.quiet);
    const auto divide = parallel_divide(
        drops, drops.start(), d, o.threads, progress,
        [&](drop::Position& p, int rest) { return hashed_perft(drops, p, rest, table); });
    nodes.push_back(divide.total());
    match &= Count(nodes.back()) == count_at(closed["sequences"], d);
  }
  j["sequences"] = nodes;
  j["match"] = match;
  return j;
}

}  // namespace solver::claims
