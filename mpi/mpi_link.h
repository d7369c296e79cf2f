// What every distributed command shares (mpi/mpi_tier_solver.h, mpi/mpi_proof_search.h): MPI for
// the length of one run (Session), and one thread's end of the messages between ranks (Link),
// which counts what goes between them.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mpi_solve {

// MPI_Init_thread for MPI_THREAD_MULTIPLE (rank 0 of the tier solve calls MPI from two threads)
// and MPI_Finalize. A library that does not allow it makes rank 0 say so and aborts the run.
// Collectives (the tier solve's split tiers) go over a communicator of their own, team(), so they
// never meet the point-to-point messages of MPI_COMM_WORLD.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm team() const { return team_; }

 private:
  int rank_ = 0, size_ = 1;
  MPI_Comm team_ = MPI_COMM_NULL;
};

// Messages, counted: a message a process sends itself (rank 0's manager to its own solving
// thread in the tier solve) costs nothing and is not.
struct LinkCounts {
  std::uint64_t messages_sent = 0, messages_received = 0, bytes_sent = 0, bytes_received = 0;
};

class Link {
 public:
  explicit Link(int rank) : rank_(rank) {}

  void send(int to, int tag, const void* data = nullptr, std::size_t bytes = 0);
  template <typename T>
  void send_value(int to, int tag, const T& value) {
    send(to, tag, &value, sizeof value);
  }

  // A message from `from` (or MPI_ANY_SOURCE) with one of `tags`, if one has arrived.
  std::optional<std::vector<char>> try_receive(int from, std::initializer_list<int> tags,
                                               MPI_Status& status);
  // Waits for one. Polls rather than blocks: OpenMPI's blocking receive spins a core, which a
  // solving or searching thread of the same process needs; the wait between polls doubles from
  // 50 microseconds up to `longest_pause`, which is the most a message waits unseen.
  std::vector<char> receive(int from, std::initializer_list<int> tags, MPI_Status& status,
                            std::chrono::microseconds longest_pause = std::chrono::milliseconds(5));

  const LinkCounts& counts() const { return counts_; }

 private:
  int rank_;
  LinkCounts counts_;
};

// A fixed-size value sent as bytes: the ranks run one build of drop16 on machines of one
// architecture. Read back zero-filled when the message is shorter.
template <typename T>
std::string bytes_of(const T& value) {
  return std::string(reinterpret_cast<const char*>(&value), sizeof value);
}
template <typename T>
T value_of(std::string_view data) {
  T value{};
  std::memcpy(&value, data.data(), std::min(sizeof value, data.size()));
  return value;
}
template <typename T>
T value_of(const std::vector<char>& data) {
  return value_of<T>(std::string_view(data.data(), data.size()));
}

}  // namespace mpi_solve
