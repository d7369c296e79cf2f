// Admission of concurrent searches. A fixed number of slots, each with its own state (a solver and
// its table, kept between searches so that a game played on reuses them): at most that many
// searches run at once, so their CPU and memory stay bounded, and at most `max_waiting` more wait
// for a slot; any further one is turned away at once, so that waiting requests cannot hold every
// thread of a server while searches run.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace solver {

template <typename State>
class SearchSlots {
 public:
  using Clock = std::chrono::steady_clock;

  // The right to search with one slot's state, given back when the lease is destroyed.
  class Lease {
   public:
    Lease(Lease&& other) noexcept
        : slots_(std::exchange(other.slots_, nullptr)), index_(other.index_) {}
    // The lease held before goes to `other`, and is given back with it.
    Lease& operator=(Lease&& other) noexcept {
      std::swap(slots_, other.slots_);
      std::swap(index_, other.index_);
      return *this;
    }
    ~Lease() {
      if (slots_) slots_->release(index_);
    }
    State& operator*() const { return slots_->states_[index_]; }
    State* operator->() const { return &**this; }

   private:
    friend class SearchSlots;
    Lease(SearchSlots* slots, std::size_t index) : slots_(slots), index_(index) {}
    SearchSlots* slots_;
    std::size_t index_;
  };

  SearchSlots(std::size_t slots, std::size_t max_waiting)
      : states_(slots), max_waiting_(max_waiting) {
    if (slots == 0) throw std::invalid_argument("at least one search slot is needed");
    for (std::size_t i = 0; i < slots; ++i) free_.push_back(i);
  }
  SearchSlots(const SearchSlots&) = delete;
  SearchSlots& operator=(const SearchSlots&) = delete;

  // A slot, waiting for one to be given back until `deadline` at most; none when the deadline
  // passes first or `max_waiting` requests are already waiting. The slot given back last is taken
  // first: its state is the most likely to hold the work a request continues.
  std::optional<Lease> acquire(Clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    if (free_.empty()) {
      if (waiting_ >= max_waiting_) return std::nullopt;
      ++waiting_;
      const bool freed = given_back_.wait_until(lock, deadline, [&] { return !free_.empty(); });
      --waiting_;
      if (!freed) return std::nullopt;
    }
    const std::size_t index = free_.back();
    free_.pop_back();
    return Lease(this, index);
  }

  std::size_t size() const { return states_.size(); }
  // Slots leased now.
  std::size_t running() const {
    std::lock_guard lock(mutex_);
    return states_.size() - free_.size();
  }
  // Requests waiting for a slot now.
  std::size_t waiting() const {
    std::lock_guard lock(mutex_);
    return waiting_;
  }

 private:
  void release(std::size_t index) {
    {
      std::lock_guard lock(mutex_);
      free_.push_back(index);
    }
    given_back_.notify_one();
  }

  std::vector<State> states_;  // never resized: leases point into it
  const std::size_t max_waiting_;
  mutable std::mutex mutex_;
  std::condition_variable given_back_;
  std::vector<std::size_t> free_;
  std::size_t waiting_ = 0;
};

}  // namespace solver
