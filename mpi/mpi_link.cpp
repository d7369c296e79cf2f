#include "mpi/mpi_link.h"

#include <algorithm>
#include <cstdio>
#include <thread>
#include <utility>

namespace mpi_solve {

Session::Session() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank_ == 0)
      std::fprintf(stderr,
                   "drop16: this MPI library does not allow calls from several "
                   "threads (MPI_THREAD_MULTIPLE), which --mpi needs\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &team_);
}

Session::~Session() {
  MPI_Comm_free(&team_);
  MPI_Finalize();
}

void Link::send(int to, int tag, const void* data, std::size_t bytes) {
  MPI_Send(data, int(bytes), MPI_BYTE, to, tag, MPI_COMM_WORLD);
  if (to == rank_) return;
  ++counts_.messages_sent;
  counts_.bytes_sent += bytes;
}

std::optional<std::vector<char>> Link::try_receive(int from, std::initializer_list<int> tags,
                                                   MPI_Status& status) {
  for (const int tag : tags) {
    int found = 0;
    MPI_Iprobe(from, tag, MPI_COMM_WORLD, &found, &status);
    if (!found) continue;
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    std::vector<char> data(static_cast<std::size_t>(bytes));
    MPI_Recv(data.data(), bytes, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    if (status.MPI_SOURCE != rank_) {
      ++counts_.messages_received;
      counts_.bytes_received += std::uint64_t(bytes);
    }
    return data;
  }
  return std::nullopt;
}

std::vector<char> Link::receive(int from, std::initializer_list<int> tags, MPI_Status& status,
                                std::chrono::microseconds longest_pause) {
  auto pause = std::chrono::microseconds(50);
  for (;;) {
    if (auto data = try_receive(from, tags, status)) return std::move(*data);
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, longest_pause);
  }
}

}  // namespace mpi_solve
