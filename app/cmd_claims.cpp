// drop16 claims: the designer's published claims about Drop 16 (seeds/drop16.ru.txt) checked
// exactly, for Drop 16 or any variant. Every figure comes from enumeration or dynamic programming
// over the rules engine and is cross-checked against a closed formula where one exists. Writes
// a markdown report with SVG plots and a JSON record to --out; the record doubles as the
// checkpoint: a re-run with the same variant reuses every finished section whose parameters are
// unchanged, so an interrupted run resumes, and the report can be regenerated without recounting.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "app/command.h"
#include "app/resources.h"
#include "rules/drop/drops_only.h"
#include "rules/drop/placements.h"
#include "solver/claims_chart.h"
#include "solver/claims_count.h"
#include "solver/claims_game_paths.h"
#include "solver/claims_orbits.h"
#include "solver/claims_random_probes.h"
#include "solver/distinct_positions.h"
#include "solver/forward_solver.h"
#include "solver/hashed_perft.h"
#include "solver/parallel_perft.h"
#include "solver/perft.h"

namespace app {

namespace {

using json = nlohmann::ordered_json;
using solver::Count;
using solver::to_decimal;

struct ClaimsOptions {
  PositionOptions position;
  int threads = 1;
  std::uint64_t memory_mb = 0;
  std::uint64_t samples = 2'000'000;
  std::uint64_t seed = 1;
  // Not results/: a run with other parameters must not land on the published report.
  std::string out = "claims-report";
  bool visit_all = false;
  bool fresh = false;
};

// Work limits that keep each section to minutes on a 2-core machine: a search that would exceed
// them is not started, and the report says how far it went (`drop16 distinct` and `drop16 perft`
// go deeper by hand). A breadth-first search stops before a ply whose predicted children exceed
// its budget: the drops-only one only cross-checks closed counts, the all-play one is a figure.
constexpr double kDropsOnlyChildBudget = 6e7;
constexpr double kAllPlayChildBudget = 4e8;
// Exact perft deepens while the next depth is predicted to take less than this.
constexpr double kPerftStepSeconds = 60;
constexpr double kVisitAllAutoLimit = 2e8;      // canonical forms visited without --visit-all
constexpr std::uint64_t kProbeRound = 1 << 20;  // probes between checkpoints
constexpr std::uint64_t kSmallVariantProbes = 200'000;
constexpr int kCompleteGamesSeconds = 600;  // exact path counting gives up after this long
constexpr int kSmallVariantSeconds = 120;

// The designer's thresholds.
constexpr double kClaimedPlacements = 3e11;
constexpr double kClaimedPaths = 1e18;

// ---------------------------------------------------------------------------------------------
// Machine facts: per-section peak memory and the machine the figures were measured on.

// Resets the kernel's peak-RSS mark so each section's peak is its own (Linux >= 4.0).
void reset_peak_memory() {
  std::ofstream("/proc/self/clear_refs") << "5";
}

double section_peak_memory_mb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return peak_memory_mb();
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

double load_average() {
  double load[1] = {0};
  return getloadavg(load, 1) == 1 ? load[0] : -1;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return text;
}

// ---------------------------------------------------------------------------------------------
// The record: one JSON object per variant, written atomically after every finished section.

class Record {
 public:
  // Bumped whenever a section's fields change, so that records written by older versions of
  // this command are recounted rather than misread.
  static constexpr int kFormat = 1;

  // Loads the record at `path` unless `fresh`. A record this run cannot reuse as it is (another
  // variant or format, unreadable, or a finished section counted with other parameters than
  // `planned` gives it) is a published result that the run would replace: refused (UsageError),
  // and the message says how to go on.
  Record(std::filesystem::path path, const std::string& variant, bool fresh, const json& planned)
      : path_(std::move(path)) {
    const auto report = std::filesystem::path(path_).replace_extension(".md");
    if (!fresh && std::filesystem::exists(path_)) {
      std::ifstream in(path_);
      try {
        data_ = json::parse(in);
      } catch (const json::exception&) {
        refuse("it cannot be read as a claims record");
      }
      if (data_.value("variant", "") != variant || data_.value("format", 0) != kFormat)
        refuse("it is a record of another variant or an older version of this command");
      if (data_.contains("sections"))
        for (const auto& [name, params] : planned.items())
          if (const json* s = find(name);
              s && s->value("complete", false) && s->value("params", json()) != params)
            refuse("its section " + name + " was counted with " + s->at("params").dump() +
                   ", this run asks for " + params.dump());
    } else if (!fresh && std::filesystem::exists(report)) {
      refuse_report(report, "there is no record of how it was made beside it");
    }
    data_["variant"] = variant;
    data_["format"] = kFormat;
    if (!data_.contains("sections")) data_["sections"] = json::object();
  }

  const json* finished(const std::string& section, const json& params) const {
    const json* s = partial(section, params);
    return s && s->value("complete", false) ? s : nullptr;
  }
  // A section in progress (complete=false) that can be resumed with these parameters.
  const json* partial(const std::string& section, const json& params) const {
    const json* s = find(section);
    return s && s->value("params", json()) == params ? s : nullptr;
  }
  void store(const std::string& section, const json& value) {
    data_["sections"][section] = value;
    save();
  }
  json& data() { return data_; }
  void save() const {
    const auto temporary = std::filesystem::path(path_.string() + ".tmp");
    {
      std::ofstream out(temporary);
      out << data_.dump(1) << "\n";
      if (!out) throw std::runtime_error("cannot write " + temporary.string());
    }
    std::filesystem::rename(temporary, path_);
  }

 private:
  const json* find(const std::string& section) const {
    const json& sections = data_["sections"];
    return sections.contains(section) ? &sections[section] : nullptr;
  }
  [[noreturn]] void refuse(const std::string& why) const { refuse_report(path_, why); }
  [[noreturn]] static void refuse_report(const std::filesystem::path& file,
                                         const std::string& why) {
    throw UsageError("claims: " + file.string() + " holds a report this run would replace (" + why +
                     "); write elsewhere with --out DIR, or replace it with --fresh");
  }

  std::filesystem::path path_;
  json data_;
};

void write_file(const std::filesystem::path& path, const std::string& text) {
  const auto temporary = std::filesystem::path(path.string() + ".tmp");
  {
    std::ofstream out(temporary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + temporary.string());
  }
  std::filesystem::rename(temporary, path);
}

// Runs one section unless the record holds it finished with the same parameters; times it and
// notes its peak memory.
template <typename Compute>
json run_section(Record& record, const ClaimsOptions& o, const std::string& name,
                 const json& params, Compute compute) {
  if (const json* done = record.finished(name, params)) {
    if (!o.position.quiet)
      std::fprintf(stderr, "claims: %s: reusing the finished section\n", name.c_str());
    return *done;
  }
  if (!o.position.quiet) std::fprintf(stderr, "claims: %s ...\n", name.c_str());
  reset_peak_memory();
  const auto start = std::chrono::steady_clock::now();
  json result = compute();
  json section;
  section["params"] = params;
  section["complete"] = true;
  section["seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  section["peak_memory_mb"] = section_peak_memory_mb();
  section["threads"] = o.threads;
  section["measured"] = utc_now();
  section["load_average"] = load_average();
  section["command"] = record.data()["command"];
  section.update(result);
  record.store(name, section);
  return section;
}

json count_strings(const std::vector<Count>& counts) {
  json a = json::array();
  for (Count c : counts) a.push_back(to_decimal(c));
  return a;
}

Count count_at(const json& array, std::size_t i) {
  return solver::parse_count(array.at(i).get<std::string>());
}

// ---------------------------------------------------------------------------------------------
// Section 1-3: drops-only play in closed form, by canonical forms and Burnside.

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

json drop_phase(const drop::Game& game, const ClaimsOptions& o) {
  const drop::Variant& v = game.variant();
  const int last = drop::last_drop_ply(v);
  const int n = v.squares();
  const auto group = drop::square_permutations(game.geometry());
  std::vector<Count> raw, orbits, burnside, colourings, sequences, per_position;
  std::vector<int> pairs;
  std::uint64_t total_pairs = 0;
  for (int k = 0; k <= last; ++k) total_pairs += drop::dropped_after(v, k).size();
  solver::Progress progress("canonical forms by ply", total_pairs, "pairs of dropped hands",
                            !o.position.quiet);
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
          fixed_at_last[g] =
              solver::checked_add(fixed_at_last[g], solver::count_fixed_colourings(group[g], m));
      r = solver::checked_add(r, solver::multinomial(m));
      burn = solver::checked_add(burn, solver::count_orbits_burnside(group, m));
      solver::CanonicalEnumerationOptions options;
      options.threads = o.threads;
      const bool weigh = full && k == last;
      const auto counts = solver::enumerate_canonical_colourings(
          group, m, weigh ? capture_weights : solver::PointWeights{}, options);
      orb = solver::checked_add(orb, counts.orbits);
      col = solver::checked_add(col, counts.colourings);
      if (weigh) capture_sum = solver::checked_add(capture_sum, counts.weight_sum);
      progress.advance();
      progress.add_to_rate(1);
    }
    if (k == last)
      last_ply_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - ply_start).count();
    const int white = (k + 1) / 2, black = k / 2;
    // Each side's drops fill its squares in any order: white! * black! drop sequences per position.
    const Count orders = solver::checked_mul(solver::factorial(white), solver::factorial(black));
    // Closed form: the squares in the order they fill, times each side's order of piece types.
    Count seq = solver::falling_factorial(n, k);
    seq = solver::checked_mul(
        seq, solver::words_from_multiset(hand_counts(v.start_hand[drop::kWhite]), white));
    seq = solver::checked_mul(
        seq, solver::words_from_multiset(hand_counts(v.start_hand[drop::kBlack]), black));
    checks_pass &= r == col && orb == burn && seq == solver::checked_mul(r, orders);
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
    j["next_ply_sequences"] = to_decimal(solver::checked_mul(capture_sum, per_position.back()));
  }
  return j;
}

// ---------------------------------------------------------------------------------------------
// Enumeration cross-checks of the closed drops-only counts.

// The last ply k whose predicted children (positions at k-1 times a bound on their moves) stay
// within the budget.
int plies_within_budget(const json& counts, int last, const drop::Variant& v) {
  int types = 0;
  for (drop::Color c : {drop::kWhite, drop::kBlack})
    types = std::max(types, drop::distinct_types(v.start_hand[c]));
  int ply = 0;
  while (ply < last) {
    const double parents = solver::to_double(count_at(counts, ply));
    if (parents * double(v.squares() - ply) * types > kDropsOnlyChildBudget) break;
    ++ply;
  }
  return ply;
}

json drop_phase_breadth_first(const drop::Game& game, const json& closed, const ClaimsOptions& o) {
  json j;
  if (!game.keys_fit()) {
    j["skipped"] = "positions of this variant do not fit the 128-bit exact keys";
    return j;
  }
  const drop::DropsOnlyGame drops(game);
  const int last = closed["last_drop_ply"].get<int>();
  bool match = true;
  for (const bool symmetric : {false, true}) {
    const char* name = symmetric ? "up_to_symmetry" : "positions";
    const int plies = plies_within_budget(closed[name], last, game.variant());
    const auto counts = solver::count_distinct_positions(
        drops, drops.start(), plies, o.memory_mb << 20, o.threads, !o.position.quiet,
        [&](const drop::Position& p) {
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

json drop_phase_perft(const drop::Game& game, const json& closed, const ClaimsOptions& o) {
  json j;
  if (!game.keys_fit()) {
    j["skipped"] = "positions of this variant do not fit the 128-bit exact keys";
    return j;
  }
  const drop::DropsOnlyGame drops(game);
  const int depth = plies_within_budget(closed["up_to_symmetry"],
                                        closed["last_drop_ply"].get<int>(), game.variant());
  solver::PerftTable<drop::Key> table(std::min<std::uint64_t>(o.memory_mb << 20, 1ull << 30) / 2);
  std::vector<std::uint64_t> nodes{1};
  bool match = true;
  for (int d = 1; d <= depth; ++d) {
    solver::Progress progress("drops-only perft " + std::to_string(d), 0, "nodes",
                              !o.position.quiet);
    const auto divide = solver::parallel_divide(
        drops, drops.start(), d, o.threads, progress,
        [&](drop::Position& p, int rest) { return solver::hashed_perft(drops, p, rest, table); });
    nodes.push_back(divide.total());
    match &= Count(nodes.back()) == count_at(closed["sequences"], d);
  }
  j["sequences"] = nodes;
  j["match"] = match;
  return j;
}

json orbit_counts_json(const solver::OrbitCounts& c) {
  return json{{"orbits", to_decimal(c.orbits)},
              {"colourings", to_decimal(c.colourings)},
              {"weight_sum", to_decimal(c.weight_sum)},
              {"visited", to_decimal(c.visited)}};
}

solver::OrbitCounts orbit_counts_from(const json& j) {
  auto count = [&](const char* key) { return solver::parse_count(j[key].get<std::string>()); };
  return {count("orbits"), count("colourings"), count("weight_sum"), count("visited")};
}

// Visits every canonical form of the last drops-only ply one by one, in rounds of work items;
// after each round the partial counts go to the record, and an interrupted run resumes there.
json visit_every_canonical_form(const drop::Game& game, const json& closed, Record& record,
                                const std::string& section, const ClaimsOptions& o) {
  const drop::Variant& v = game.variant();
  const int last = closed["last_drop_ply"].get<int>();
  const bool full = closed["board_full"].get<bool>();
  const auto group = drop::square_permutations(game.geometry());
  const auto weights =
      full ? drop::full_board_capture_weights(game.geometry(), drop::Color(last % 2))
           : solver::PointWeights{};
  solver::OrbitCounts total;
  std::size_t first_pair = 0, first_item = 0;
  double earlier_seconds = 0;
  if (const json* partial = record.partial(section, json::object());
      partial && partial->contains("next_pair")) {
    total = orbit_counts_from((*partial)["counts"]);
    first_pair = (*partial)["next_pair"];
    first_item = (*partial)["next_item"];
    earlier_seconds = (*partial)["earlier_seconds"];
  }
  const auto start = std::chrono::steady_clock::now();
  const auto dropped = drop::dropped_after(v, last);
  for (std::size_t i = first_pair; i < dropped.size(); ++i, first_item = 0) {
    const auto m = drop::colour_multiplicities(v, dropped[i]);
    const std::size_t items = solver::canonical_work_items(group, m);
    solver::Progress progress("canonical forms at ply " + std::to_string(last) + " (hands " +
                                  std::to_string(i + 1) + "/" + std::to_string(dropped.size()) +
                                  ")",
                              items, "forms", !o.position.quiet);
    progress.advance(first_item);
    constexpr std::size_t kRounds = 20;
    const std::size_t round = std::max<std::size_t>(1, (items + kRounds - 1) / kRounds);
    for (std::size_t item = first_item; item < items || item == 0; item += round) {
      solver::CanonicalEnumerationOptions options;
      options.visit_every_form = true;
      options.threads = o.threads;
      options.progress = &progress;
      options.first_item = item;
      options.item_count = round;
      total += solver::enumerate_canonical_colourings(group, m, weights, options);
      const bool pair_done = item + round >= items;
      json partial{
          {"params", json::object()},
          {"complete", false},
          {"counts", orbit_counts_json(total)},
          {"next_pair", pair_done ? i + 1 : i},
          {"next_item", pair_done ? 0 : item + round},
          {"earlier_seconds",
           earlier_seconds +
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()}};
      record.store(section, partial);
      if (pair_done) break;
    }
  }
  json j;
  j["ply"] = last;
  j["visited"] = to_decimal(total.visited);
  j["up_to_symmetry"] = to_decimal(total.orbits);
  j["positions"] = to_decimal(total.colourings);
  j["earlier_seconds"] = earlier_seconds;
  bool match = total.orbits == count_at(closed["up_to_symmetry"], last) &&
               total.colourings == count_at(closed["positions"], last);
  if (full) {
    j["full_board_captures_sum"] = to_decimal(total.weight_sum);
    match &= to_decimal(total.weight_sum) == closed["full_board_captures_sum"].get<std::string>();
  }
  j["match"] = match;
  return j;
}

// ---------------------------------------------------------------------------------------------
// Play with captures: exact perft, distinct positions, complete games, random probes.

json exact_perft(const drop::Game& game, const ClaimsOptions& o) {
  json j;
  std::optional<solver::PerftTable<drop::Key>> table;
  if (game.keys_fit()) table.emplace(std::min<std::uint64_t>(o.memory_mb << 20, 2ull << 30) / 2);
  std::vector<std::uint64_t> nodes{1};
  std::vector<double> seconds{0};
  for (int d = 1; d <= 64; ++d) {
    solver::Progress progress("perft " + std::to_string(d), 0, "nodes", !o.position.quiet);
    const auto start = std::chrono::steady_clock::now();
    const auto divide = solver::parallel_divide(
        game, game.start(), d, o.threads, progress, [&](drop::Position& p, int rest) {
          return table ? solver::hashed_perft(game, p, rest, *table) : solver::perft(game, p, rest);
        });
    nodes.push_back(solver::checked_u64(divide.total()));
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    // The next depth costs at most about the branching factor times more (the table usually
    // saves much of that, but less and less as the tree outgrows it).
    const std::size_t n = nodes.size();
    const double branching =
        double(nodes[n - 1]) / double(std::max<std::uint64_t>(1, nodes[n - 2]));
    if (nodes.back() == 0 || seconds.back() * branching > kPerftStepSeconds) break;
  }
  j["nodes"] = nodes;
  j["seconds_per_depth"] = seconds;
  j["hashed"] = bool(table);
  return j;
}

json capture_breadth_first(const drop::Game& game, const json& perft, const json& probes,
                           const ClaimsOptions& o) {
  json j;
  if (!game.keys_fit()) {
    j["skipped"] = "positions of this variant do not fit the 128-bit exact keys";
    return j;
  }
  // Mean moves per position at ply k, from exact perft where known, else the probes' estimate.
  auto branching = [&](std::size_t k) {
    const auto& exact = perft["nodes"];
    if (k + 1 < exact.size() && exact[k].get<double>() > 0)
      return exact[k + 1].get<double>() / exact[k].get<double>();
    const auto& estimate = probes["perft_estimate"];
    if (k + 1 < estimate.size() && estimate[k].get<double>() > 0)
      return estimate[k + 1].get<double>() / estimate[k].get<double>();
    return 0.0;
  };
  for (const bool symmetric : {false, true}) {
    const char* name = symmetric ? "up_to_symmetry" : "positions";
    std::vector<std::uint64_t> found{1};
    bool stopped_by_memory = false;
    // Deepen one ply at a time from the root (the last ply dominates the cost) while the next
    // ply's predicted work stays within the budget.
    for (int ply = 1;; ++ply) {
      const double children = double(found.back()) * branching(found.size() - 1);
      if (children <= 0 || children > kAllPlayChildBudget) break;
      const auto counts = solver::count_distinct_positions(
          game, game.start(), ply, o.memory_mb << 20, o.threads, !o.position.quiet,
          [&](const drop::Position& p) {
            return symmetric ? game.symmetric_key(p) : game.raw_key(p);
          });
      if (!counts.complete) {
        stopped_by_memory = true;
        break;
      }
      found = counts.per_ply;
      if (found.back() == 0) break;
    }
    j[name] = found;
    j[std::string(name) + "_stopped_by_memory"] = stopped_by_memory;
  }
  return j;
}

// The length of the game from the start under perfect play (RULES.md: the winner hurries, the
// loser delays), and who wins it: the forward solver's DTE. Only asked where path counting has
// shown the positions fit, since the solver visits the same ones.
json perfect_play(const drop::Game& game, const ClaimsOptions& o) {
  try {
    solver::ForwardSolver<drop::Game> forward(game, o.memory_mb << 20);
    auto start = game.start();
    const int dte = forward.dte(start);
    return json{{"length", dte}, {"first_player", solver::is_win(dte) ? "wins" : "loses"}};
  } catch (const solver::SearchMemoryError&) {
    return json{{"why_not", "more memory than --memory"}};
  }
}

json complete_games(const drop::Game& game, const json& closed, const ClaimsOptions& o) {
  json j;
  if (!game.keys_fit()) {
    j["skipped"] = "positions of this variant do not fit the 128-bit exact keys";
    return j;
  }
  // The memo holds at least the drops-only positions, up to symmetry and colour swap.
  double at_least = 0;
  for (const auto& c : closed["up_to_symmetry"])
    at_least += solver::to_double(solver::parse_count(c)) / 2;
  constexpr double kBytesPerPosition = 49;
  if (at_least * kBytesPerPosition > double(o.memory_mb << 20)) {
    char reason[200];
    std::snprintf(reason, sizeof reason,
                  "needs at least %.3g positions (the drops-only ones alone, up to symmetry and "
                  "colour swap), %.3g GB, more than --memory",
                  at_least, at_least * kBytesPerPosition / 1e9);
    j["skipped"] = reason;
    return j;
  }
  solver::Progress progress("complete games", 0, "positions", !o.position.quiet);
  try {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(kCompleteGamesSeconds);
    const auto games =
        solver::count_complete_games(game, game.start(), o.memory_mb << 20, deadline, &progress);
    j["games"] = to_decimal(games.tree.games);
    j["shortest"] = games.tree.shortest;
    j["longest"] = games.tree.longest;
    j["positions"] = games.positions;
    j["perfect_play"] = perfect_play(game, o);
  } catch (const solver::MemoryCapReached&) {
    j["skipped"] = "stopped by the memory cap (--memory)";
  } catch (const solver::DeadlineReached&) {
    j["skipped"] = "did not finish within " + std::to_string(kCompleteGamesSeconds) + " s";
  } catch (const solver::CountOverflow&) {
    j["skipped"] = "the number of complete games exceeds 2^128";
  }
  return j;
}

json probe_totals_json(const solver::ProbeTotals& t) {
  json j;
  j["probes"] = t.probes;
  j["games_by_length"] = t.games_by_length;
  j["weight_by_length"] = t.weight_by_length;
  j["weight_sum"] = t.weight_sum;
  j["weight_sum_sq"] = t.weight_sum_sq;
  j["perft_sum"] = t.perft_sum;
  j["perft_sum_sq"] = t.perft_sum_sq;
  j["largest_weight"] = t.largest_weight;
  return j;
}

solver::ProbeTotals probe_totals_from(const json& j) {
  solver::ProbeTotals t;
  t.probes = j["probes"];
  t.games_by_length = j["games_by_length"].get<std::vector<std::uint64_t>>();
  t.weight_by_length = j["weight_by_length"].get<std::vector<double>>();
  t.weight_sum = j["weight_sum"];
  t.weight_sum_sq = j["weight_sum_sq"];
  t.perft_sum = j["perft_sum"].get<std::vector<double>>();
  t.perft_sum_sq = j["perft_sum_sq"].get<std::vector<double>>();
  t.largest_weight = j["largest_weight"];
  return t;
}

json estimate_json(const solver::Estimate& e) {
  return json{
      {"mean", e.mean}, {"standard_error", e.standard_error}, {"low", e.low}, {"high", e.high}};
}

// What the probes say: Knuth's estimates and the length distribution of random games.
json summarize_probes(const solver::ProbeTotals& t) {
  json j;
  j["probes"] = t.probes;
  j["complete_games"] =
      estimate_json(solver::estimate_mean(t.weight_sum, t.weight_sum_sq, t.probes));
  json perft = json::array(), perft_error = json::array();
  for (std::size_t d = 0; d < t.perft_sum.size(); ++d) {
    const auto e = solver::estimate_mean(t.perft_sum[d], t.perft_sum_sq[d], t.probes);
    perft.push_back(e.mean);
    perft_error.push_back(e.standard_error);
  }
  j["perft_estimate"] = perft;
  j["perft_standard_error"] = perft_error;
  json games_by_length = json::array();
  for (double w : t.weight_by_length) games_by_length.push_back(w / double(t.probes));
  j["complete_games_by_length_estimate"] = games_by_length;
  j["random_games_by_length"] = t.games_by_length;
  double mean = 0;
  int shortest = -1, longest = 0;
  for (std::size_t length = 0; length < t.games_by_length.size(); ++length) {
    if (!t.games_by_length[length]) continue;
    mean += double(length) * double(t.games_by_length[length]);
    if (shortest < 0) shortest = int(length);
    longest = int(length);
  }
  j["random_game_mean_length"] = t.probes ? mean / double(t.probes) : 0;
  j["random_game_shortest"] = shortest;
  j["random_game_longest"] = longest;
  j["largest_probe_weight"] = t.largest_weight;
  // How much of the estimate the single largest probe carries: near 1 means one lucky probe
  // dominates, the heavy tail the interval cannot see.
  j["largest_probe_share"] = t.weight_sum > 0 ? t.largest_weight / t.weight_sum : 0;
  return j;
}

json random_play(const drop::Game& game, Record& record, const json& params,
                 const ClaimsOptions& o) {
  solver::ProbeTotals totals;
  if (const json* partial = record.partial("random_play", params);
      partial && partial->contains("totals"))
    totals = probe_totals_from((*partial)["totals"]);
  double earlier_seconds = 0;
  if (const json* partial = record.partial("random_play", params))
    earlier_seconds = partial->value("earlier_seconds", 0.0);
  solver::Progress progress("random games", o.samples, "games", !o.position.quiet);
  progress.advance(totals.probes);
  const auto start = std::chrono::steady_clock::now();
  while (totals.probes < o.samples) {
    const std::uint64_t round = std::min(kProbeRound, o.samples - totals.probes);
    totals.add(
        solver::run_probes(game, game.start(), o.seed, totals.probes, round, o.threads, &progress));
    // A finished round is kept even if the run stops now: the next run continues from here.
    json partial;
    partial["params"] = params;
    partial["complete"] = false;
    partial["totals"] = probe_totals_json(totals);
    partial["earlier_seconds"] =
        earlier_seconds +
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    record.store("random_play", partial);
  }
  json j = summarize_probes(totals);
  j["earlier_seconds"] = earlier_seconds;  // spent by interrupted runs this one resumed
  j["seed"] = o.seed;
  j["totals"] = probe_totals_json(totals);
  return j;
}

// Variants small enough to count every complete game, to compare with the estimator.
const char* const kSmallVariants[] = {"2x2:NK",  "2x2:NBK",  "2x2:NBRQK", "3x2:NBRK", "3x3:NK",
                                      "3x3:NBK", "3x3:NBRK", "4x4:NK",    "4x4:NBK"};

json small_variants(const ClaimsOptions& o) {
  json rows = json::array();
  for (const char* name : kSmallVariants) {
    const drop::Game game(drop::parse_variant(name));
    json row;
    row["variant"] = name;
    const auto start = std::chrono::steady_clock::now();
    try {
      const auto games =
          solver::count_complete_games(game, game.start(), o.memory_mb << 20,
                                       start + std::chrono::seconds(kSmallVariantSeconds));
      row["games"] = to_decimal(games.tree.games);
      row["shortest"] = games.tree.shortest;
      row["longest"] = games.tree.longest;
      row["positions"] = games.positions;
      row["perfect_play"] = perfect_play(game, o);
    } catch (const solver::MemoryCapReached&) {
      row["games"] = nullptr;
      row["why_not"] = "more memory than --memory";
    } catch (const solver::DeadlineReached&) {
      row["games"] = nullptr;
      row["why_not"] = "did not finish within " + std::to_string(kSmallVariantSeconds) + " s";
    }
    row["exact_seconds"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto totals =
        solver::run_probes(game, game.start(), o.seed, 0, kSmallVariantProbes, o.threads);
    row["knuth"] = estimate_json(
        solver::estimate_mean(totals.weight_sum, totals.weight_sum_sq, totals.probes));
    row["probes"] = totals.probes;
    row["random_mean_length"] = summarize_probes(totals)["random_game_mean_length"];
    rows.push_back(row);
  }
  json j;
  j["variants"] = rows;
  return j;
}

// ---------------------------------------------------------------------------------------------
// Verdicts: each claim against the exact figures (estimates only where nothing exact decides).

std::string with_commas(const std::string& digits) {
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string sci(double v, int digits = 3) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, v);
  return text;
}

// A share as a percentage with three significant digits, so rare lengths do not read as 0.
std::string percent(double share) {
  return sci(100 * share) + "%";
}

std::string fixed(double v, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

// The largest count of move sequences proven exactly: every one of them extends to at least one
// complete game, and distinct prefixes give distinct games.
std::pair<Count, std::string> paths_lower_bound(const json& closed, const json& perft) {
  const int last = closed["last_drop_ply"].get<int>();
  Count best = count_at(closed["sequences"], last);
  std::string basis = "drops-only sequences of " + std::to_string(last) + " plies";
  if (closed.contains("next_ply_sequences")) {
    const Count next = solver::parse_count(closed["next_ply_sequences"].get<std::string>());
    if (next > best) {
      best = next;
      basis = std::to_string(last + 1) + "-ply sequences that drop " + std::to_string(last) +
              " times and then capture";
    }
  }
  const auto& nodes = perft["nodes"];
  for (std::size_t d = 0; d < nodes.size(); ++d)
    if (Count(nodes[d].get<std::uint64_t>()) > best) {
      best = nodes[d].get<std::uint64_t>();
      basis =
          "move sequences of " + std::to_string(d) + " plies (perft(" + std::to_string(d) + "))";
    }
  return {best, basis};
}

json verdicts(const drop::Game& game, const json& closed, const json& perft, const json& games,
              const json& probes) {
  const drop::Variant& v = game.variant();
  const int last = closed["last_drop_ply"].get<int>();
  const std::string placements = closed["positions"][last].get<std::string>();
  const std::string symmetric = closed["up_to_symmetry"][last].get<std::string>();
  json out = json::array();

  const bool many = solver::to_double(solver::parse_count(placements)) > kClaimedPlacements;
  const bool many_symmetric =
      solver::to_double(solver::parse_count(symmetric)) > kClaimedPlacements;
  out.push_back(
      {{"claim",
        "after the 16 opening plies, if nobody captures, there are more than three hundred "
        "billion different placements"},
       {"verdict", many ? "true" : "false"},
       {"figure", with_commas(placements) + " positions after " + std::to_string(last) +
                      " plies of drops only (exact); up to the board's symmetries " +
                      with_commas(symmetric) + ", " + (many_symmetric ? "also more" : "fewer") +
                      " than 3e11"}});

  const auto [bound, basis] = paths_lower_bound(closed, perft);
  const auto& knuth = probes["complete_games"];
  json paths{{"claim", "the number of different paths of play easily exceeds 10^18"}};
  if (games.contains("games")) {
    const Count exact = solver::parse_count(games["games"].get<std::string>());
    paths["verdict"] = solver::to_double(exact) > kClaimedPaths ? "true" : "false";
    paths["figure"] = with_commas(to_decimal(exact)) + " complete games (exact)";
  } else if (solver::to_double(bound) > kClaimedPaths) {
    paths["verdict"] = "true";
    paths["figure"] = "at least " + with_commas(to_decimal(bound)) + " (" +
                      sci(solver::to_double(bound)) +
                      ") complete games, exact lower bound: " + basis + "; Knuth's estimate " +
                      sci(knuth["mean"].get<double>()) + " complete games";
  } else {
    paths["verdict"] = "unproven";
    paths["figure"] = "proven only >= " + with_commas(to_decimal(bound)) + " (" + basis +
                      "); Knuth's estimate " + sci(knuth["mean"].get<double>());
  }
  out.push_back(paths);

  const int pieces = v.hand_size(drop::kWhite) + v.hand_size(drop::kBlack);
  const int longest = pieces ? 2 * pieces - 1 : 0;
  out.push_back(
      {{"claim", "the rule that forbids passing cuts the tree off: games are short"},
       {"verdict", "true"},
       {"figure", "no game lasts more than " + std::to_string(longest) +
                      " plies (every move drops a piece or removes one, and a capture leaves at "
                      "least one piece); uniformly random games last " +
                      fixed(probes["random_game_mean_length"].get<double>(), 2) +
                      " plies on average (" +
                      std::to_string(probes["probes"].get<std::uint64_t>()) + " games)"}});
  out.push_back({{"claim", "a player can calculate the position three to five moves ahead"},
                 {"verdict", "unproven"},
                 {"figure",
                  "not a count of this game's tree: how far a player must see depends on "
                  "perfect play, whose game lengths are given for the small variants solved "
                  "here (section 5); the value of the start itself is the proof search's job "
                  "(issue 5)"}});
  return out;
}

// ---------------------------------------------------------------------------------------------
// The report: markdown and two SVG plots, drawn from the record alone.

std::vector<std::pair<double, double>> count_series(const json& counts) {
  std::vector<std::pair<double, double>> points;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    const double y = counts[k].is_string()
                         ? solver::to_double(solver::parse_count(counts[k].get<std::string>()))
                         : counts[k].get<double>();
    points.emplace_back(double(k), y);
  }
  return points;
}

std::string positions_chart(const json& sections, const std::string& variant) {
  solver::Chart chart;
  chart.title = variant + ": positions and move sequences per ply";
  chart.x_label = "ply";
  chart.y_label = "count (log scale)";
  chart.log_y = true;
  const json& closed = sections["drop_phase"];
  chart.series.push_back({"drops only: positions", count_series(closed["positions"]), false});
  chart.series.push_back(
      {"drops only: up to symmetry", count_series(closed["up_to_symmetry"]), false});
  chart.series.push_back({"drops only: move sequences", count_series(closed["sequences"]), false});
  const json& bfs = sections["capture_bfs"];
  if (bfs.contains("positions")) {
    chart.series.push_back({"all play: positions", count_series(bfs["positions"]), false});
    chart.series.push_back(
        {"all play: up to symmetry", count_series(bfs["up_to_symmetry"]), false});
  }
  chart.series.push_back(
      {"all play: perft (exact)", count_series(sections["perft"]["nodes"]), false});
  chart.series.push_back({"all play: perft (Knuth estimate)",
                          count_series(sections["random_play"]["perft_estimate"]), true});
  return solver::render_svg(chart);
}

std::string lengths_chart(const json& probes, const std::string& variant) {
  solver::Chart chart;
  chart.title = variant + ": game lengths";
  chart.x_label = "plies";
  chart.y_label = "share";
  chart.bars = true;
  solver::ChartSeries random{"uniformly random play (share of games)", {}, false};
  const auto& counts = probes["random_games_by_length"];
  const double n = probes["probes"].get<double>();
  for (std::size_t l = 0; l < counts.size(); ++l)
    random.points.emplace_back(double(l), counts[l].get<double>() / n);
  solver::ChartSeries all{"all complete games (share, Knuth estimate)", {}, false};
  const auto& weights = probes["complete_games_by_length_estimate"];
  const double total = probes["complete_games"]["mean"].get<double>();
  for (std::size_t l = 0; l < weights.size(); ++l)
    all.points.emplace_back(double(l), total > 0 ? weights[l].get<double>() / total : 0);
  chart.series = {random, all};
  return solver::render_svg(chart);
}

std::string cost_line(const json& section) {
  if (!section.contains("seconds")) return "not run";
  const double seconds = section["seconds"].get<double>() + section.value("earlier_seconds", 0.0);
  return fixed(seconds, 1) + " s, peak " + fixed(section["peak_memory_mb"].get<double>(), 0) +
         " MB, " + std::to_string(section["threads"].get<int>()) + " threads";
}

std::string cell(const json& array, std::size_t i) {
  if (!array.is_array() || i >= array.size()) return "";
  return array[i].is_string() ? with_commas(array[i].get<std::string>())
                              : with_commas(std::to_string(array[i].get<std::uint64_t>()));
}

std::string report(const json& record, const std::string& base) {
  const json& sec = record["sections"];
  const json& closed = sec["drop_phase"];
  const json& probes = sec["random_play"];
  const std::string variant = record["variant"];
  const int last = closed["last_drop_ply"];
  std::ostringstream md;
  md << "# " << (variant == "drop16" ? "Drop 16" : variant)
     << ": the designer's claims, checked exactly\n\n"
     << "Regenerate with `" << record["command"].get<std::string>() << "` (sections already in `"
     << base << ".json` with the same parameters are reused; "
     << "add `--fresh` to recount everything). Measured on " << record["machine"].get<std::string>()
     << ". The machine is shared with other work, so times are wall-clock under load (each "
     << "section lists the load average it ran under in the JSON record); counts do not depend "
     << "on it. Counts that exceed 2^64 are exact 128-bit integers.\n\n";

  md << "## Verdicts\n\n| claim (the designer's text, translated) | verdict | figure "
        "|\n|---|---|---|\n";
  for (const auto& v : record["verdicts"])
    md << "| " << v["claim"].get<std::string>() << " | **" << v["verdict"].get<std::string>()
       << "** | " << v["figure"].get<std::string>() << " |\n";

  md << "\n## 1. Positions after the drops-only opening (ply " << last << ")\n\n";
  md << "After " << last << " plies in which both sides only drop, White has dropped "
     << (last + 1) / 2 << " pieces and Black " << last / 2
     << (closed["board_full"].get<bool>() ? "; the board is full" : "")
     << ". Such a position is a colouring of the squares by the dropped pieces. **Every one is "
        "reachable**: each side drops its pieces onto its own squares in any order, and a drop is "
        "legal whenever the mover has a piece in hand and an empty square exists (capturing is "
        "never "
        "compulsory), so no position on the way is terminal.\n\n"
     << "| count | value | how |\n|---|---|---|\n"
     << "| positions | " << cell(closed["positions"], last)
     << " | sum over what each side dropped of the multinomial (squares)! / (copies of each piece)!"
     << (variant == "drop16" ? " = 16!/(2!^6)" : "")
     << "; canonical forms weighted by orbit size give "
     << cell(closed["positions_by_canonical_forms"], last) << " |\n"
     << "| up to the board's symmetries | " << cell(closed["up_to_symmetry"], last)
     << " | enumeration of canonical forms; Burnside's lemma gives "
     << cell(closed["up_to_symmetry_burnside"], last) << " |\n"
     << "| drop sequences per position | " << cell(closed["sequences_per_position"], last) << " | "
     << (last + 1) / 2 << "! × " << last / 2 << "!: each side's order of its own squares |\n";
  md << "\nBurnside's lemma: the orbits are the mean over the symmetries of the colourings each "
        "one fixes, and a symmetry fixes a colouring only if each of its cycles of squares is one "
        "colour. The terms at ply "
     << last << ": ";
  for (std::size_t g = 0; g < closed["burnside_fixed_at_last_ply"].size(); ++g)
    md << (g ? "; " : "") << closed["symmetry_names"][g].get<std::string>() << " "
       << cell(closed["burnside_fixed_at_last_ply"], g);
  md << ".";
  if (variant == "drop16")
    md << " The turns and the mirrors through edges move every square, so a piece that is alone "
          "of its kind (Q, K, q, k) cannot keep its place: they fix nothing. A diagonal mirror "
          "fixes the 4 squares of its diagonal, which must then hold the 4 single pieces (4! "
          "ways), and pairs the other 12 squares, each pair holding one of the 6 pairs (6! ways): "
          "17,280. So (326,918,592,000 + 2 × 17,280) / 8 = 40,864,828,320.";
  md << "\n\n";
  md << "The canonical forms are each orbit's least member, built square by square; a prefix is "
        "dropped as soon as a symmetry maps it lower, and once every symmetry maps it higher its "
        "completions are counted at once by a multinomial. Ply "
     << last << " took " << fixed(closed["last_ply_seconds"].get<double>(), 2) << " s with "
     << sec["drop_phase"]["threads"].get<int>() << " threads (all plies " << cost_line(closed)
     << ").";
  std::map<int, json> visits;  // finished visit-all sections by threads
  for (const auto& [name, visit] : sec.items())
    if (name.rfind("visit_all", 0) == 0 && visit.value("complete", false))
      visits[visit["threads"].get<int>()] = visit;
  if (!visits.empty()) {
    const json& any = visits.begin()->second;
    md << " As a literal check, every canonical form at ply " << last << " ("
       << with_commas(any["visited"].get<std::string>()) << ") was also visited one by one: "
       << (any["match"].get<bool>() ? "the counts agree" : "**the counts disagree**")
       << " with every figure above. Time:";
    for (const auto& [threads, visit] : visits)
      md << " " << fixed(visit["seconds"].get<double>() + visit.value("earlier_seconds", 0.0), 1)
         << " s with " << threads << (threads == 1 ? " thread" : " threads") << " (load average "
         << fixed(visit["load_average"].get<double>(), 1) << "),";
    md << " peak memory " << fixed(any["peak_memory_mb"].get<double>(), 0) << " MB.";
    if (visits.size() > 1) {
      const auto& [few, slow] = *visits.begin();
      const auto& [many, fast] = *visits.rbegin();
      md << " From " << few << " to " << many << " threads the visit runs "
         << fixed(slow["seconds"].get<double>() / fast["seconds"].get<double>(), 2)
         << " times as fast: its work items are independent prefixes of the search, so it "
            "scales with the cores that other work on the machine leaves free.";
    }
  }
  md << "\n\n";

  md << "## 2. Distinct positions per ply\n\n![positions per ply](" << base
     << "-positions.svg)\n\nDrops only: closed counts (sums of multinomials over what each side "
        "dropped), up to symmetry by canonical forms (equal to Burnside at every ply: "
     << (closed["checks_pass"].get<bool>() ? "yes" : "**no**")
     << "), and a breadth-first search over real positions of the engine restricted to drops, as "
        "deep as a budget of "
     << sci(kDropsOnlyChildBudget) << " generated children at the last ply allows (agrees: "
     << (sec["drop_phase_bfs"].value("match", false) ? "yes" : "**no**")
     << "). All play (captures allowed): breadth-first search with exact keys "
        "(`solver::count_distinct_positions`), deepened while the next ply's predicted children "
        "stay under "
     << sci(kAllPlayChildBudget)
     << " and its sets fit --memory; the positions after ply k are disjoint from those after "
        "any other ply, since the material fixes the ply.\n\n"
     << "| ply | drops only | up to symmetry | BFS | BFS up to sym. | all play | all play up to "
        "sym. |\n"
     << "|---|---|---|---|---|---|---|\n";
  const int rows =
      std::max<int>(last + 1, int(sec["capture_bfs"].value("positions", json::array()).size()));
  for (int k = 0; k < rows; ++k)
    md << "| " << k << " | " << cell(closed["positions"], k) << " | "
       << cell(closed["up_to_symmetry"], k) << " | " << cell(sec["drop_phase_bfs"]["positions"], k)
       << " | " << cell(sec["drop_phase_bfs"]["up_to_symmetry"], k) << " | "
       << cell(sec["capture_bfs"]["positions"], k) << " | "
       << cell(sec["capture_bfs"]["up_to_symmetry"], k) << " |\n";
  md << "\nCosts: closed counts and canonical forms " << cost_line(closed) << "; drops-only BFS "
     << cost_line(sec["drop_phase_bfs"]) << "; all-play BFS " << cost_line(sec["capture_bfs"])
     << ".\n\n";

  md << "## 3. Move sequences and perft\n\nDrops-only sequences in closed form: "
        "(squares)!/(squares - k)! "
        "ways to fill squares in order, times each side's orders of piece types (words drawn from "
        "its "
        "hand); checked against (positions) × (sequences per position) at every ply and against "
        "perft of the engine restricted to drops (hashed, exact). perft counts every sequence of "
        "exactly k plies, so perft(k) ≥ the drops-only sequences.\n\n"
     << "| ply | drops-only sequences | by enumeration | perft (exact) | perft (Knuth estimate ± "
        "s.e.) |\n"
     << "|---|---|---|---|---|\n";
  const json& estimates = probes["perft_estimate"];
  for (int k = 0; k <= std::max<int>(last, int(estimates.size()) - 1); ++k) {
    md << "| " << k << " | " << cell(closed["sequences"], k) << " | "
       << cell(sec["drop_phase_perft"]["sequences"], k) << " | " << cell(sec["perft"]["nodes"], k)
       << " | ";
    if (k < int(estimates.size()))
      md << sci(estimates[k].get<double>()) << " ± "
         << sci(probes["perft_standard_error"][k].get<double>());
    md << " |\n";
  }
  md << "\nperft(" << last << ") ≥ " << cell(closed["sequences"], last) << " (drops only, exact)";
  if (closed.contains("next_ply_sequences"))
    md << "; perft(" << last + 1 << ") ≥ "
       << with_commas(closed["next_ply_sequences"].get<std::string>())
       << ": on a full board every slider, leaper and king captures the nearest square in each of "
          "its "
          "directions, so a board's capture count is a sum over its squares; summed over all "
       << cell(closed["positions"], last) << " boards it is "
       << with_commas(closed["full_board_captures_sum"].get<std::string>())
       << " (from the canonical forms with weights), times the drop sequences per position";
  md << ". Exact perft: " << cost_line(sec["perft"])
     << ", deepened while the next depth was predicted to take under "
     << fixed(kPerftStepSeconds, 0)
     << " s. The estimates come from the random games of section 5.\n\n";

  md << "## 4. Complete games\n\nA complete game is a move sequence from the start to a terminal "
        "position. ";
  const json& games = sec["complete_games"];
  if (games.contains("games"))
    md << "**Exact: " << with_commas(games["games"].get<std::string>())
       << "** complete games, from "
       << with_commas(std::to_string(games["positions"].get<std::uint64_t>()))
       << " canonical positions (path counting memoized on canonical keys; " << cost_line(games)
       << "); the shortest game has " << games["shortest"] << " plies, the longest "
       << games["longest"] << ".\n\n";
  else
    md << "Exact path counting: not computed: " << games["skipped"].get<std::string>() << ".\n\n";
  const auto [bound, basis] = paths_lower_bound(closed, sec["perft"]);
  const json& knuth = probes["complete_games"];
  md << "- **Exact lower bound: " << with_commas(to_decimal(bound)) << "** ("
     << sci(solver::to_double(bound)) << "), the number of " << basis
     << ": each such sequence extends to at least one complete game, and "
        "different sequences to different games.\n"
     << "- **Knuth's estimate: " << sci(knuth["mean"].get<double>(), 4)
     << "** complete games, 95% interval [" << sci(knuth["low"].get<double>(), 4) << ", "
     << sci(knuth["high"].get<double>(), 4) << "] (mean ± 1.96 standard errors, from the sample "
     << "variance of " << with_commas(std::to_string(probes["probes"].get<std::uint64_t>()))
     << " random descents, seed " << probes["seed"]
     << "). Each descent plays uniformly random moves to the end; the product of the numbers of "
        "moves it met is an unbiased estimate. The distribution is heavy-tailed: the largest "
        "single product is "
     << sci(probes["largest_probe_weight"].get<double>()) << ", "
     << percent(probes["largest_probe_share"].get<double>())
     << " of the sum, and the interval only reflects the tail the sample has seen: rare "
        "descents with far larger products may exist.\n\n";
  md << "The estimator against exact counts on small variants (" << kSmallVariantProbes
     << " descents each, seed " << probes["seed"] << "; " << cost_line(sec["small_variants"])
     << "):\n\n"
     << "| variant | complete games (exact) | shortest–longest | Knuth's estimate | 95% interval "
        "|\n|---|---|---|---|---|\n";
  for (const auto& row : sec["small_variants"]["variants"]) {
    md << "| " << row["variant"].get<std::string>() << " | ";
    if (row["games"].is_null())
      md << row["why_not"].get<std::string>() << " | | ";
    else
      md << with_commas(row["games"].get<std::string>()) << " | " << row["shortest"] << "–"
         << row["longest"] << " | ";
    md << sci(row["knuth"]["mean"].get<double>()) << " | ["
       << sci(row["knuth"]["low"].get<double>()) << ", " << sci(row["knuth"]["high"].get<double>())
       << "] |\n";
  }

  md << "\n## 5. Game lengths\n\n![game lengths](" << base << "-lengths.svg)\n\n"
     << with_commas(std::to_string(probes["probes"].get<std::uint64_t>()))
     << " games of uniformly random play (each move chosen "
        "uniformly among the legal ones; seed "
     << probes["seed"] << "; " << cost_line(probes) << "): mean "
     << fixed(probes["random_game_mean_length"].get<double>(), 2) << " plies, shortest "
     << probes["random_game_shortest"] << ", longest " << probes["random_game_longest"]
     << ". The second series weighs each length by Knuth's estimate of the number of complete "
        "games "
        "of that length.\n\n| plies | random games | share | share of all "
        "complete games (estimate) |\n|---|---|---|---|\n";
  const auto& by_length = probes["random_games_by_length"];
  const double n = probes["probes"].get<double>();
  for (std::size_t l = 0; l < by_length.size(); ++l) {
    if (!by_length[l].get<std::uint64_t>()) continue;
    md << "| " << l << " | " << with_commas(std::to_string(by_length[l].get<std::uint64_t>()))
       << " | " << percent(by_length[l].get<double>() / n) << " | "
       << percent(probes["complete_games_by_length_estimate"][l].get<double>() /
                  knuth["mean"].get<double>())
       << " |\n";
  }
  md << "\n### Under perfect play\n\nWith the winner hurrying and the loser delaying (the "
        "distance to end of RULES.md), a game from the start has a single length: the start's "
        "DTE, from the forward solver (`solver/forward_solver.h`, memoized negamax with exact "
        "DTE). It is computed where exact path counting showed the positions fit.\n\n"
     << "| variant | first player | length under perfect play | uniformly random play, mean |\n"
        "|---|---|---|---|\n";
  auto perfect_row = [&](const std::string& name, const json& perfect, const std::string& mean) {
    md << "| " << name << " | ";
    if (perfect.contains("length"))
      md << perfect["first_player"].get<std::string>() << " | " << perfect["length"] << " plies";
    else
      md << "not computed | " << perfect.value("why_not", std::string("—"));
    md << " | " << mean << " |\n";
  };
  bool listed = false;
  for (const auto& row : sec["small_variants"]["variants"]) {
    listed |= row["variant"] == variant;
    if (row.contains("perfect_play"))
      perfect_row(row["variant"], row["perfect_play"],
                  fixed(row["random_mean_length"].get<double>(), 2) + " plies");
  }
  const std::string random_mean =
      fixed(probes["random_game_mean_length"].get<double>(), 2) + " plies";
  if (!listed)  // the report's own variant, unless the table above has it
    perfect_row(variant,
                games.contains("perfect_play")
                    ? games["perfect_play"]
                    : json{{"why_not",
                            "too big for exact search here; proving the value of the start is "
                            "the proof search's job (issue 5)"}},
                random_mean);
  md << "\n## Cost of each section\n\nWall-clock seconds, the section's own peak resident "
        "memory, and the load average of the shared machine when it finished.\n\n| section | "
        "seconds | peak memory | threads | load | command |\n|---|---|---|---|---|---|\n";
  for (const auto& [name, section] : sec.items()) {
    if (!section.value("complete", false)) {
      md << "| " << name << " | interrupted, resumes on the next run | | | | |\n";
      continue;
    }
    md << "| " << name << " | "
       << fixed(section["seconds"].get<double>() + section.value("earlier_seconds", 0.0), 1)
       << " | " << fixed(section["peak_memory_mb"].get<double>(), 0) << " MB | "
       << section["threads"] << " | " << fixed(section["load_average"].get<double>(), 1) << " | `"
       << section.value("command", std::string()) << "` |\n";
  }
  md << "\n## Not claimed here\n\n"
     << "- Figures that were not measured are not written down: deeper all-play position counts "
        "(`drop16 distinct`) and deeper perft (`drop16 perft`) are left to those commands.\n"
     << "- The designer's comparisons with chess, Hex and Dots and Boxes, and with the grains of "
        "sand "
        "on Earth's beaches, are not counts of this game and are not judged.\n";
  return md.str();
}

// ---------------------------------------------------------------------------------------------

std::string command_line(const ClaimsOptions& o, const std::string& variant) {
  std::string c = "drop16 claims";
  if (variant != "drop16") c += " --variant " + variant;
  c += " --threads " + std::to_string(o.threads) + " --memory " + std::to_string(o.memory_mb) +
       " --samples " + std::to_string(o.samples) + " --seed " + std::to_string(o.seed) + " --out " +
       o.out;
  if (o.visit_all) c += " --visit-all";
  return c;
}

std::string machine_line() {
  return cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) + " cores, " +
         fixed(double(physical_memory_mb()) / 1024.0, 1) + " GiB";
}

std::string file_base(const std::string& variant) {
  if (variant == "drop16") return "claims";
  std::string base = "claims-" + variant;
  for (char& ch : base)
    if (ch == ':' || ch == '/') ch = '-';
  return base;
}

void run_claims(const ClaimsOptions& o) {
  const Setup s = make_setup(o.position, "claims");
  const drop::Game& game = *s.game;
  const std::string variant = game.variant().name();
  const std::string base = file_base(variant);
  const std::filesystem::path out(o.out);
  std::filesystem::create_directories(out);
  // Each section's parameters: a finished section is reused only when they are the same.
  const json memory{{"memory_mb", o.memory_mb}};
  const json memory_and_solver{{"memory_mb", o.memory_mb}, {"perfect_play", true}};
  const json probe_params{{"samples", o.samples}, {"seed", o.seed}};
  const json params{{"drop_phase", json::object()},
                    {"drop_phase_bfs", memory},
                    {"drop_phase_perft", memory},
                    {"perft", memory},
                    {"random_play", probe_params},
                    {"capture_bfs", memory},
                    {"complete_games", memory_and_solver},
                    {"small_variants",
                     json{{"seed", o.seed}, {"memory_mb", o.memory_mb}, {"perfect_play", true}}}};
  Record record(out / (base + ".json"), variant, o.fresh, params);
  record.data()["command"] = command_line(o, variant);

  json closed;
  try {
    closed = run_section(record, o, "drop_phase", params["drop_phase"],
                         [&] { return drop_phase(game, o); });
  } catch (const solver::CountOverflow&) {
    // Every other section builds on these counts.
    throw std::runtime_error("claims: the drops-only counts of " + variant +
                             " exceed 2^128, beyond the exact counters; nothing can be reported");
  }
  run_section(record, o, "drop_phase_bfs", params["drop_phase_bfs"],
              [&] { return drop_phase_breadth_first(game, closed, o); });
  run_section(record, o, "drop_phase_perft", params["drop_phase_perft"],
              [&] { return drop_phase_perft(game, closed, o); });
  const int last = closed["last_drop_ply"];
  // One visit-all section per thread count, so that runs with different --threads show scaling.
  bool visited_before = false;
  for (const auto& [name, section] : record.data()["sections"].items())
    visited_before |= name.rfind("visit_all", 0) == 0 && section.value("complete", false);
  const bool few_forms =
      solver::to_double(count_at(closed["up_to_symmetry"], last)) <= kVisitAllAutoLimit;
  if (o.visit_all || (few_forms && !visited_before)) {
    const std::string section = "visit_all_" + std::to_string(o.threads) + "_threads";
    run_section(record, o, section, json::object(),
                [&] { return visit_every_canonical_form(game, closed, record, section, o); });
  }
  const json perft =
      run_section(record, o, "perft", params["perft"], [&] { return exact_perft(game, o); });
  const json probes = run_section(record, o, "random_play", params["random_play"],
                                  [&] { return random_play(game, record, probe_params, o); });
  run_section(record, o, "capture_bfs", params["capture_bfs"],
              [&] { return capture_breadth_first(game, perft, probes, o); });
  const json games = run_section(record, o, "complete_games", params["complete_games"],
                                 [&] { return complete_games(game, closed, o); });
  run_section(record, o, "small_variants", params["small_variants"],
              [&] { return small_variants(o); });

  json& data = record.data();
  data["machine"] = machine_line();
  data["verdicts"] = verdicts(game, closed, perft, games, probes);
  record.save();
  write_file(out / (base + ".md"), report(data, base));
  write_file(out / (base + "-positions.svg"), positions_chart(data["sections"], variant));
  write_file(out / (base + "-lengths.svg"),
             lengths_chart(data["sections"]["random_play"], variant));

  if (o.position.json) {
    std::cout << data.dump() << std::endl;
    return;
  }
  for (const auto& v : data["verdicts"])
    std::cout << v["verdict"].get<std::string>() << ": " << v["claim"].get<std::string>() << " -- "
              << v["figure"].get<std::string>() << "\n";
  std::cout << "report: " << (out / (base + ".md")).string() << std::endl;
}

}  // namespace

void register_claims(CLI::App& app) {
  auto o = std::make_shared<ClaimsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "claims",
      "check the designer's claims (placements, paths of play, game length) exactly and "
      "write a report with plots");
  add_position_options(*cmd, o->position, /*with_fen=*/false);
  add_threads_option(*cmd, o->threads);
  o->memory_mb = physical_memory_mb() / 4;
  cmd->add_option("--memory", o->memory_mb,
                  "memory cap in MB for the searches (default: a quarter of this machine)")
      ->check(CLI::Range(std::uint64_t{16}, std::uint64_t{1} << 30))
      ->capture_default_str();
  cmd->add_option("--samples", o->samples, "random games (Knuth probes) to play")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40))
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "seed of the random games")
      ->check(unsigned_64())
      ->capture_default_str();
  cmd->add_option("--out", o->out, "directory for the report, plots and JSON record")
      ->capture_default_str();
  cmd->add_flag("--visit-all", o->visit_all,
                "also visit every canonical form of the last drops-only ply one by one (minutes on "
                "Drop 16; automatic when there are at most 2e8)");
  cmd->add_flag("--fresh", o->fresh, "ignore finished sections in the JSON record and recount");
  cmd->callback([o] { run_claims(*o); });
}

}  // namespace app
