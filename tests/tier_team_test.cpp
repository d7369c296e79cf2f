// A tier split over a team (tablebase/tier_team.h) without MPI: the members are threads of this
// process, each with its own TierSolver and its own parts of the tier, exchanging requests and
// entries through a team that passes byte strings between them. The tables must come out as one
// solver's, byte for byte, also when a split tier is stopped in the middle and resumed by a team of
// another size.
#include "tablebase/tier_team.h"

#include <unistd.h>

#include <barrier>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <span>
#include <stdexcept>
#include <thread>

#include "rules/drop/game.h"
#include "rules/drop/solve/tier_space.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_solver.h"

namespace {

namespace fs = std::filesystem;
using tablebase::IndexRange;
using tablebase::TierTeam;

// What the members have in common: the byte strings of an exchange in progress (from, to), and
// their flags for an agreement.
struct Shared {
  explicit Shared(int members)
      : sync(members), mail(members, std::vector<TierTeam::Bytes>(members)), flags(members, 0) {}
  std::barrier<> sync;
  std::vector<std::vector<TierTeam::Bytes>> mail;
  std::vector<char> flags;
};

class ThreadTeam final : public TierTeam {
 public:
  ThreadTeam(Shared& shared, int member) : shared_(shared), member_(member) {}
  int members() const override { return int(shared_.flags.size()); }
  int member() const override { return member_; }

  using TierTeam::exchange;
  void exchange(const std::vector<Bytes>& to_each, std::vector<Bytes>& from) override {
    // Catch2's assertions are not for several threads at once: a wrong call throws instead.
    if (int(to_each.size()) != members()) throw std::logic_error("exchange: one string a member");
    shared_.mail[member_] = to_each;
    shared_.sync.arrive_and_wait();
    from.resize(members());
    for (int m = 0; m < members(); ++m) from[m] = shared_.mail[m][member_];
    shared_.sync.arrive_and_wait();  // no member sends again before all have read
  }

  bool any(bool mine) override {
    shared_.flags[member_] = mine;
    shared_.sync.arrive_and_wait();
    bool some = false;
    for (char f : shared_.flags) some = some || f;
    shared_.sync.arrive_and_wait();
    return some;
  }

 private:
  Shared& shared_;
  int member_;
};

tablebase::TierSolveOptions options_for(const fs::path& dir, bool value_only) {
  tablebase::TierSolveOptions o;
  o.dir = dir;
  o.memory_bytes = std::uint64_t{1} << 30;
  o.zstd_level = 1;
  o.value_only = value_only;
  o.chunk_entries = 1000;  // several chunks a pass, as a big tier has
  return o;
}

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

struct TempDir {
  fs::path dir = fs::temp_directory_path() /
                 ("tier_team_test_" + std::to_string(::getpid()) + "_" + std::to_string(count++));
  TempDir() { fs::create_directories(dir); }
  ~TempDir() { fs::remove_all(dir); }
  static inline int count = 0;
};

// Solves the tiers of `space` not yet in `options.dir`, each by a team of `members` threads.
// Returns false when a member was asked to stop (SolveInterrupted on every member). Counts in
// `in_parts` the tiers whose children member 0 held in parts.
bool solve_by_team(const drop::TierSpace& space, const tablebase::TierSolveOptions& options,
                   int members, std::function<bool()> stop_on_member_1 = nullptr,
                   int* in_parts = nullptr) {
  Shared shared(members);
  std::vector<int> interrupted(members, 0);
  std::vector<std::thread> threads;
  for (int m = 0; m < members; ++m)
    threads.emplace_back([&, m] {
      auto own = options;
      if (m == 1) own.stop_requested = stop_on_member_1;
      tablebase::TierSolver<drop::TierSpace> solver(space, own);
      ThreadTeam team(shared, m);
      for (int t = 0; t < space.tier_count(); ++t) {
        if (tablebase::tier_files_present(options.dir, space.variant_name(), space.tier_name(t),
                                          options.value_only))
          continue;
        try {
          const int parts = solver.solve_tier(t, &team).children_in_parts;
          if (m == 0 && in_parts) *in_parts += parts;
        } catch (const tablebase::SolveInterrupted&) {
          interrupted[m] = 1;
          return;
        }
        // Member 0 writes the files: the others wait for them before looking for the next tier.
        shared.sync.arrive_and_wait();
      }
    });
  for (auto& thread : threads) thread.join();
  for (int m = 1; m < members; ++m) CHECK(interrupted[m] == interrupted[0]);
  return !interrupted[0];
}

void check_same_tables(const drop::TierSpace& space, const fs::path& a, const fs::path& b,
                       bool value_only) {
  for (int t = 0; t < space.tier_count(); ++t) {
    std::vector<fs::path> paths = {tablebase::value_path(a, space.tier_name(t))};
    if (!value_only) paths.push_back(tablebase::dte_path(a, space.tier_name(t)));
    for (const fs::path& path : paths) {
      INFO(path.filename());
      REQUIRE(fs::exists(path));
      CHECK(file_bytes(path) == file_bytes(b / path.filename()));
    }
  }
}

}  // namespace

TEST_CASE("a team's parts cut every range into contiguous parts on 64-entry bounds", "[tierteam]") {
  for (const IndexRange range : {IndexRange{0, 0}, IndexRange{5, 6}, IndexRange{3, 200},
                                 IndexRange{100, 1000003}, IndexRange{64, 128}}) {
    for (int members = 1; members <= 5; ++members) {
      std::uint64_t covered = 0, at = range.begin;
      for (int m = 0; m < members; ++m) {
        const IndexRange p = TierTeam::part(range, m, members);
        CHECK(p.begin == at);
        CHECK(p.begin <= p.end);
        if (m > 0 && p.begin != range.begin && p.begin != range.end) CHECK(p.begin % 64 == 0);
        covered += p.end - p.begin;
        at = p.end;
      }
      CHECK(at == range.end);
      CHECK(covered == range.end - range.begin);
      // Near equal: no part larger than an even share and a word.
      for (int m = 0; m < members; ++m) {
        const IndexRange p = TierTeam::part(range, m, members);
        CHECK(p.end - p.begin <= (range.end - range.begin) / members + 64 + 1);
      }
    }
  }
}

// With room for every child whole each member reads them whole; at the team's smallest plan it
// cannot, holds its part of each child and asks the others for the rest.
TEST_CASE("tiers split over a team of threads give one solver's tables", "[tierteam][parallel]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game);
  for (const bool value_only : {false, true})
    for (const bool smallest : {false, true}) {
      INFO("value only: " << value_only << ", at the smallest plan: " << smallest);
      TempDir alone, team;
      tablebase::solve_tiers(space, options_for(alone.dir, value_only));
      auto options = options_for(team.dir, value_only);
      if (smallest) options.memory_bytes = tablebase::planned_memory(space, value_only, 0, 3);
      int in_parts = 0;
      CHECK(solve_by_team(space, options, 3, nullptr, &in_parts));
      check_same_tables(space, alone.dir, team.dir, value_only);
      if (smallest)
        CHECK(in_parts > 0);
      else
        CHECK(in_parts == 0);
    }
}

TEST_CASE("a split tier stopped by one member resumes from member 0's checkpoint",
          "[tierteam][parallel]") {
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const drop::TierSpace space(game);
  for (const bool value_only : {false, true}) {
    INFO("value only: " << value_only);
    TempDir alone, team;
    tablebase::solve_tiers(space, options_for(alone.dir, value_only));
    auto options = options_for(team.dir, value_only);
    options.checkpoint_interval = {};  // a checkpoint between every two sweeps
    int polls = 0;
    // Member 1 alone is asked to stop, in the middle of the variant's largest tier.
    const int largest = space.tier_count() - 1;
    REQUIRE(space.tier_passes(largest).size() >= 3);
    std::function<bool()> stop = [&] {
      return !tablebase::tier_files_present(team.dir, space.variant_name(),
                                            space.tier_name(largest - 1), value_only)
                 ? false
                 : ++polls == 2;
    };
    CHECK_FALSE(solve_by_team(space, options, 3, stop));
    const fs::path partial = tablebase::partial_path(team.dir, space.tier_name(largest));
    REQUIRE(fs::exists(partial));
    std::vector<std::uint64_t> words(space.tier_size(largest));
    const auto state = tablebase::read_partial_tier(
        team.dir, space.variant_name(), space.tier_name(largest), words, value_only ? 1 : 8);
    CHECK(state.passes == 2);  // saved after the pass it stopped in
    // A team of another size goes on from it, and the tables are one solver's.
    CHECK(solve_by_team(space, options, 2));
    CHECK_FALSE(fs::exists(partial));
    check_same_tables(space, alone.dir, team.dir, value_only);
  }
}
