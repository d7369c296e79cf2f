// Small rows solved on demand, for a server (drop16 serve's oracle, tablebase/oracle.h): a whole
// variant of a game with loopy tier tables, when the server was given no tables of it, is solved
// by the tier engine (loopy_tier_solver.h, or the compact solve its space chooses) into a folder
// of its own under the temporary directory, and read back as tables given with --tables are
// (whole_variant_tables.h). The page then shows values and distances, draws included, where the
// bounded search alone would leave "unknown".
//
// A row is solved only when its space numbers at most `max_entries` entries (a solve of a few
// seconds in the request that first asks for it) and its memory plan fits `memory_bytes`; else
// the reason is kept and given to every request for the row, with the command that solves it.
// The last `kept_rows` rows solved are kept (their folders are removed when they are dropped, and
// when the RowSolves goes). One solve runs at a time: the requests for another row wait for it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "rules/registry.h"
#include "tablebase/loopy_compact.h"
#include "tablebase/loopy_tier_solver.h"
#include "tablebase/temporary_folder.h"
#include "tablebase/whole_variant_tables.h"

namespace tablebase {

struct RowSolveLimits {
  // A few seconds of one core on the rook race and Spock rows (LOOPY.md's rates).
  std::uint64_t max_entries = std::uint64_t{1} << 24;
  std::uint64_t memory_bytes = std::uint64_t{256} << 20;
  int kept_rows = 4;
};

class RowSolves {
 public:
  explicit RowSolves(RowSolveLimits limits) : limits_(limits) {}
  RowSolves(const RowSolves&) = delete;
  RowSolves& operator=(const RowSolves&) = delete;

  // The solved tables of `variant` (entry E's normalized name of a whole variant), solving it now
  // if it is small enough; null when it is not, with `why` saying why.
  template <typename E>
  requires(E::info.tables.has(registry::TableFormat::loopy_tiers))
      std::shared_ptr<WholeVariantTables<E>> tables(const std::string& variant, std::string& why) {
    const std::lock_guard lock(mutex_);
    for (auto it = held_.begin(); it != held_.end(); ++it)
      if (it->variant == variant) {
        held_.splice(held_.begin(), held_, it);  // the most recently used first
        return tables_of(std::static_pointer_cast<Row<E>>(it->row));
      }
    if (const auto refused = refused_.find(variant); refused != refused_.end()) {
      why = refused->second;
      return nullptr;
    }
    try {
      auto row = solve<E>(variant);
      held_.push_front({variant, row});
      if (held_.size() > std::size_t(std::max(1, limits_.kept_rows))) held_.pop_back();
      return tables_of(row);
    } catch (const NotARow& e) {
      why = refused_[variant] =
          variant + " is not a whole variant the server can solve (" + e.what() + ")";
      return nullptr;
    } catch (const std::exception& e) {
      why = refused_[variant] = variant + " is not solved here: " + e.what() +
                                "; `drop16 solve --variant " + variant +
                                " --tables DIR` solves it, and `drop16 serve --tables DIR` "
                                "serves it";
      return nullptr;
    }
  }

 private:
  // A solved row's tables and the folder they are read from, removed with them.
  template <typename E>
  struct Row {
    TemporaryFolder folder{"drop16-row"};  // goes after the tables read from it
    std::unique_ptr<WholeVariantTables<E>> tables;
  };
  struct Held {
    std::string variant;
    std::shared_ptr<void> row;  // a Row<E> of the variant's entry E
  };

  // The row's tables, keeping the row (its folder) for as long as they are held.
  template <typename E>
  static std::shared_ptr<WholeVariantTables<E>> tables_of(const std::shared_ptr<Row<E>>& row) {
    return std::shared_ptr<WholeVariantTables<E>>(row, row->tables.get());
  }

  // Thrown for a variant that is not a whole variant of the game's tier space.
  class NotARow : public std::invalid_argument {
   public:
    using std::invalid_argument::invalid_argument;
  };

  template <typename E>
  std::shared_ptr<Row<E>> solve(const std::string& variant) {
    using Space = loopy_space_t<typename E::Game>;
    std::unique_ptr<const Space> space;
    try {
      space = LoopySpaceOf<typename E::Game>::of(variant);
    } catch (const std::exception& e) {
      throw NotARow(e.what());
    }
    std::uint64_t entries = 0;
    for (int t = 0; t < space->tier_count(); ++t) entries += space->tier_size(t);
    if (entries > limits_.max_entries)
      throw std::length_error("it numbers " + std::to_string(entries) + " entries, more than the " +
                              std::to_string(limits_.max_entries) + " a page's request solves");
    auto row = std::make_shared<Row<E>>();
    LoopySolveOptions options;
    options.dir = row->folder.path();
    options.memory_bytes = limits_.memory_bytes;
    if constexpr (loopy_compact<Space>())
      CompactLoopySolver<Space>(*space, options).run();
    else
      LoopyTierSolver<Space>(*space, options).run();
    row->tables = std::make_unique<WholeVariantTables<E>>(row->folder.path());
    return row;
  }

  RowSolveLimits limits_;
  std::mutex mutex_;
  std::list<Held> held_;
  std::map<std::string, std::string> refused_;
};

}  // namespace tablebase
