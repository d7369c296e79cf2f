// One writer per tables directory. Two solves writing the same tier into one directory would
// race on its temporary files (both name them after the tier); the second solve is refused
// instead. The lock is an flock on DIR/.lock, so the kernel releases it when the holder exits,
// however it exits: no stale lock to clean up after a kill.
#pragma once

#include <filesystem>
#include <stdexcept>

namespace tablebase {

class DirectoryBusy : public std::runtime_error {
 public:
  explicit DirectoryBusy(const std::string& what) : std::runtime_error(what) {}
};

class DirectoryLock {
 public:
  // Throws DirectoryBusy when another process holds `dir`'s lock.
  explicit DirectoryLock(const std::filesystem::path& dir);
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  int fd_;
};

}  // namespace tablebase
