// SearchSlots: never more leases than slots, each slot's state in one hand at a time, waiting
// bounded in time and in number. Timing assertions allow seconds where milliseconds are expected,
// so a loaded machine cannot fail them.
#include "solver/search_slots.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <vector>

namespace {

using Slots = solver::SearchSlots<int>;
using Clock = Slots::Clock;
using namespace std::chrono_literals;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

TEST_CASE("SearchSlots: never more searches at once than slots", "[search_slots]") {
  constexpr int kSlots = 3, kThreads = 12, kRounds = 40;
  // Everyone may wait, long enough for all: every request is admitted, at most kSlots at once.
  Slots slots(kSlots, kThreads);
  std::atomic<int> running{0}, peak{0}, admitted{0}, shared_state{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int round = 0; round < kRounds; ++round) {
        auto lease = slots.acquire(Clock::now() + 60s);
        if (!lease) continue;
        ++admitted;
        const int now = ++running;
        for (int seen = peak.load(); now > seen && !peak.compare_exchange_weak(seen, now);) {
        }
        // A slot's state is in one hand only: nobody else changes it while we hold the lease.
        const int mark = ++**lease;
        std::this_thread::sleep_for(200us);
        if (**lease != mark) ++shared_state;
        --running;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(admitted == kThreads * kRounds);
  CHECK(peak <= kSlots);
  CHECK(peak >= 1);
  CHECK(shared_state == 0);
  CHECK(slots.running() == 0);
}

TEST_CASE("SearchSlots: a slot given back is taken again with its state", "[search_slots]") {
  Slots slots(1, 0);
  {
    auto lease = slots.acquire(Clock::now());
    REQUIRE(lease);
    CHECK(slots.running() == 1);
    **lease = 42;
    CHECK_FALSE(slots.acquire(Clock::now() + 60s));  // busy, and no one may wait: at once
  }
  CHECK(slots.running() == 0);
  auto again = slots.acquire(Clock::now());
  REQUIRE(again);
  CHECK(**again == 42);
}

TEST_CASE("SearchSlots: waiting is bounded in number and in time", "[search_slots]") {
  Slots slots(1, 1);
  auto held = slots.acquire(Clock::now());
  REQUIRE(held);

  // One may wait: it gives up at its deadline.
  auto start = Clock::now();
  CHECK_FALSE(slots.acquire(start + 100ms));
  CHECK(seconds_since(start) >= 0.1);

  // While one waits, a second is turned away at once, whatever its deadline.
  std::atomic<bool> waiter_admitted{false};
  std::thread waiter([&] { waiter_admitted = slots.acquire(Clock::now() + 120s).has_value(); });
  start = Clock::now();
  while (slots.waiting() == 0 && seconds_since(start) < 60) std::this_thread::sleep_for(1ms);
  CHECK(slots.waiting() == 1);
  start = Clock::now();
  CHECK_FALSE(slots.acquire(start + 120s));
  CHECK(seconds_since(start) < 30);

  // Giving the slot back admits the waiter long before its deadline.
  start = Clock::now();
  held.reset();
  waiter.join();
  CHECK(waiter_admitted);
  CHECK(seconds_since(start) < 30);
  CHECK(slots.waiting() == 0);
}

TEST_CASE("SearchSlots: a lease moved onto another gives the other's slot back", "[search_slots]") {
  Slots slots(2, 0);
  auto first = slots.acquire(Clock::now());
  REQUIRE(first);
  **first = 1;
  {
    auto second = slots.acquire(Clock::now());
    REQUIRE(second);
    **second = 2;
    CHECK(slots.running() == 2);
    *first = std::move(*second);
    CHECK(**first == 2);
  }  // the moved-from lease took the first slot with it
  CHECK(slots.running() == 1);
  first.reset();
  CHECK(slots.running() == 0);
}
