#include "tablebase/directory_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace tablebase {

DirectoryLock::DirectoryLock(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / ".lock";
  fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(path.string() + ": cannot open: " + std::strerror(errno));
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    close(fd_);
    if (error == EWOULDBLOCK)
      throw DirectoryBusy(dir.string() + " is in use by another solve (it holds " + path.string() +
                          "); wait for it or stop it, then run again");
    throw std::runtime_error(path.string() + ": cannot lock: " + std::strerror(error));
  }
}

DirectoryLock::~DirectoryLock() {
  close(fd_);
}

}  // namespace tablebase
