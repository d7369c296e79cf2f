// Progress of long work on stderr: done/total, rate and elapsed time, once a second, starting only
// after the work has run a few seconds (short commands stay silent). Thread-safe to advance.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace solver {

// A duration for people, rounded: "45 s", "12 min", "3 h 05 min".
std::string duration_text(double seconds);

class Progress {
 public:
  // `unit` names what `rate_counter` counts ("nodes", "positions"); `enabled=false` prints nothing.
  Progress(std::string label, std::uint64_t total, std::string unit, bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void set_total(std::uint64_t total) { total_.store(total, std::memory_order_relaxed); }
  void advance(std::uint64_t done = 1) { done_.fetch_add(done, std::memory_order_relaxed); }
  void add_to_rate(std::uint64_t n) { rate_counter_.fetch_add(n, std::memory_order_relaxed); }
  // What the work is doing now, shown after the numbers: for stretches (a tier's group folds, say)
  // whose work done/total does not count.
  void set_stage(std::string stage);
  double elapsed_seconds() const;
  // The line a report prints (without its newline); the final one ends in ", done", or, when a
  // known total was not reached, ", stopped" and where.
  std::string line(bool final_line = false);

 private:
  void report(bool final_line);
  void run();
  std::chrono::milliseconds next_interval() const;

  std::string label_, unit_;
  std::mutex stage_mutex_;
  std::string stage_;
  std::atomic<std::uint64_t> total_, done_{0}, rate_counter_{0};
  std::chrono::steady_clock::time_point start_;
  bool enabled_, printed_ = false;
  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

// work() with `search` (anything with report_to(Progress*)) reporting to a progress line of its
// own, in nodes, which ends when work returns or throws (the search then reports nowhere).
template <typename Search, typename Work>
auto with_search_progress(Search& search, std::string label, std::uint64_t total, bool enabled,
                          Work work) {
  Progress progress(std::move(label), total, "nodes", enabled);
  search.report_to(&progress);
  struct Detach {
    Search& search;
    ~Detach() { search.report_to(nullptr); }
  } detach{search};
  return work();
}

}  // namespace solver
