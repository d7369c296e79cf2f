#include "solver/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace solver {

namespace {
constexpr auto kFirstReport = std::chrono::seconds(3);
// Reports come every 2 s at first, then every tenth of the elapsed time, at most once a minute.
constexpr auto kMinInterval = std::chrono::seconds(2);
constexpr auto kMaxInterval = std::chrono::seconds(60);
}  // namespace

std::string duration_text(double seconds) {
  const long long s = std::llround(std::max(seconds, 0.0));
  const long long minutes = (s + 30) / 60;
  char text[48];
  if (s < 60)
    std::snprintf(text, sizeof text, "%lld s", s);
  else if (minutes < 60)
    std::snprintf(text, sizeof text, "%lld min", minutes);
  else
    std::snprintf(text, sizeof text, "%lld h %02lld min", minutes / 60, minutes % 60);
  return text;
}

Progress::Progress(std::string label, std::uint64_t total, std::string unit, bool enabled)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      enabled_(enabled) {
  if (enabled_) thread_ = std::thread([this] { run(); });
}

Progress::~Progress() {
  if (!enabled_) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  thread_.join();
  if (printed_) report(true);
}

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::chrono::milliseconds Progress::next_interval() const {
  const auto tenth = std::chrono::milliseconds(std::int64_t(elapsed_seconds() * 100));
  return std::clamp<std::chrono::milliseconds>(tenth, kMinInterval, kMaxInterval);
}

void Progress::run() {
  std::unique_lock lock(mutex_);
  if (stop_cv_.wait_for(lock, kFirstReport, [this] { return stop_; })) return;
  do {
    report(false);
    printed_ = true;
  } while (!stop_cv_.wait_for(lock, next_interval(), [this] { return stop_; }));
}

void Progress::set_stage(std::string stage) {
  std::lock_guard lock(stage_mutex_);
  stage_ = std::move(stage);
}

std::string Progress::line(bool final_line) {
  const double seconds = elapsed_seconds();
  const auto done = done_.load(std::memory_order_relaxed);
  const auto counted = rate_counter_.load(std::memory_order_relaxed);
  const auto total = total_.load(std::memory_order_relaxed);
  char count[96], numbers[256];
  // Work without a known total shows what is done so far, not a share of it.
  if (total)
    std::snprintf(count, sizeof count, "%llu/%llu (%.1f%%)", static_cast<unsigned long long>(done),
                  static_cast<unsigned long long>(total), 100.0 * double(done) / double(total));
  else
    std::snprintf(count, sizeof count, "%llu", static_cast<unsigned long long>(done));
  std::snprintf(numbers, sizeof numbers, ": %s, %.3g %s/s, %.0f s elapsed", count,
                seconds > 0 ? double(counted) / seconds : 0.0, unit_.c_str(), seconds);
  std::string text = label_ + numbers;
  // Work with a known total that ends short of it was stopped (a signal, an error).
  const bool stopped = total != 0 && done < total;
  if (final_line) text += stopped ? ", stopped" : ", done";
  if (final_line && !stopped) return text;
  std::lock_guard lock(stage_mutex_);
  return stage_.empty() ? text : text + "; " + stage_;
}

void Progress::report(bool final_line) {
  std::fprintf(stderr, "%s\n", line(final_line).c_str());
  std::fflush(stderr);
}

}  // namespace solver
