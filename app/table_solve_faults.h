// How the drop16 commands report the faults of a solve that writes tables (the tier solver's, the
// loopy tier solver's): a plan over --memory, a directory another solve holds, a damaged or
// foreign file are bad input (UsageError, exit status 2, the file named); a file that could not be
// written is the machine's fault (exit status 1), the tiers finished so far kept for a rerun.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>

#include "app/command.h"
#include "tablebase/directory_lock.h"
#include "tablebase/table_file.h"
#include "tablebase/tier_memory_plan.h"

namespace app {

// solve(), its faults turned into those exceptions.
template <typename Solve>
decltype(auto) reporting_table_solve_faults(Solve&& solve) {
  try {
    return solve();
  } catch (const tablebase::MemoryCapError& e) {
    throw UsageError(e.what());
  } catch (const tablebase::DirectoryBusy& e) {
    throw UsageError(e.what());
  } catch (const tablebase::TableWriteError& e) {
    throw std::runtime_error(std::string(e.what()) +
                             "; the tiers finished so far are kept: make room and run it again");
  } catch (const tablebase::TableError& e) {
    throw UsageError(e.what());
  }
}

// For a solve that writes one file of a whole variant into DIR (a keyed table, a coalition
// table): DIR created and locked into `lock` for the solve, then open() run (what DIR already
// holds); a directory that cannot be created, one another solve holds, a damaged or foreign file
// are bad input (UsageError naming it).
template <typename Open>
decltype(auto) locking_tables_dir(const std::string& dir,
                                  std::optional<tablebase::DirectoryLock>& lock, Open&& open) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw UsageError("--tables " + dir + ": cannot create: " + error.message());
  try {
    lock.emplace(dir);
    return open();
  } catch (const tablebase::DirectoryBusy& e) {
    throw UsageError(e.what());
  } catch (const tablebase::TableError& e) {
    throw UsageError(e.what());
  }
}

}  // namespace app
