// tbb::parallel_for as the solvers call it, with oneTBB's ordering made visible to
// ThreadSanitizer.
//
// oneTBB's runtime here is Debian's libtbb, built without the sanitizer: it cannot see that a
// task runs after the code that started it, nor that a wait returns after the tasks it waited
// for, and reports races that cannot happen (flakily, whenever a thread is reused). In a
// DROP16_TSAN build, HappensBefore declares those two orderings, and only them: bodies of one
// loop stay unordered among themselves, so races between them are still reported. In other
// builds it is empty and this is exactly tbb::parallel_for.
#pragma once

#include <absl/cleanup/cleanup.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <utility>

#ifdef DROP16_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace solver {

// What a thread did before release() happens before what a thread does after acquire().
class HappensBefore {
 public:
  void release() {
#ifdef DROP16_TSAN
    __tsan_release(this);
#endif
  }
  void acquire() {
#ifdef DROP16_TSAN
    __tsan_acquire(this);
#endif
  }
};

// A task for tbb::task_group::run that calls f (or a body for tbb::parallel_for that calls
// f(range): oneTBB copies bodies into its task objects alike). oneTBB copies the task into its own
// task object on the calling thread and runs that copy on a worker, an ordering ThreadSanitizer
// cannot see, so a task that acquired inside f would have read f's address before its acquire. Each
// copy therefore releases at its own address, and the call acquires there first: its address comes
// in a register, and everything read after it (f and all f captured) is ordered after the copy.
// oneTBB also reuses a finished task's memory for the next task, on any thread, unseen too: the
// call releases again once it has read f's address, and a copy acquires before it writes, so the
// next task's copy is ordered after the last read of the one before it at that address.
// parallel_for's bodies are also copied on a thread other than the one that made the original
// (a range split on a worker), so a copy acquires at the original's address before reading it.
template <typename F>
class OrderedTask {
 public:
  explicit OrderedTask(F& f) {
    acquire_here();
    f_ = &f;
    release_here();
  }
  OrderedTask(const OrderedTask& other) {
    other.acquire_here();
    F* f = other.f_;
    acquire_here();
    f_ = f;
    release_here();
  }
  OrderedTask& operator=(const OrderedTask&) = delete;
  template <typename... Args>
  void operator()(Args&&... args) const {
    acquire_here();
    F* f = f_;
    release_here();
    (*f)(std::forward<Args>(args)...);
  }

 private:
  void acquire_here() const {
#ifdef DROP16_TSAN
    __tsan_acquire(const_cast<OrderedTask*>(this));
#endif
  }
  void release_here() const {
#ifdef DROP16_TSAN
    __tsan_release(const_cast<OrderedTask*>(this));
#endif
  }
  F* f_;
};

template <typename Range, typename Body>
void parallel_for(const Range& range, const Body& body) {
  HappensBefore started, finished;
  started.release();
  // The release and the acquire at the end are cleanups so that they hold when a body throws
  // too: oneTBB then cancels the loop and rethrows on the calling thread, which it also does
  // unseen, and the caller's objects a body read are destroyed after it.
  const auto ordered = [&](const Range& part) {
    started.acquire();
    const absl::Cleanup done = [&] { finished.release(); };
    body(part);
  };
  const absl::Cleanup joined = [&] { finished.acquire(); };
  // Through OrderedTask: a task object holding the body's copy may be one a thread used for an
  // earlier loop's.
  tbb::parallel_for(range, OrderedTask<const decltype(ordered)>(ordered));
}

// body(i) for i in [first, last).
template <typename Index, typename Body>
void parallel_for(Index first, Index last, const Body& body) {
  // Qualified: unqualified, argument-dependent lookup would find oneTBB's own parallel_for for
  // the blocked_range, which is more constrained and wins, and the orderings above would be lost.
  solver::parallel_for(tbb::blocked_range<Index>(first, last),
                       [&](const tbb::blocked_range<Index>& part) {
                         for (Index i = part.begin(); i != part.end(); ++i) body(i);
                       });
}

}  // namespace solver
