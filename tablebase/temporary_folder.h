// A folder of this process's own under the system's temporary directory ($TMPDIR, else /tmp),
// removed with everything in it when the object goes: where tables solved for one answer (a row
// the page asks for, a solve without --tables) are written and read back.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace tablebase {

class TemporaryFolder {
 public:
  // A new, empty folder named PREFIX-PID-XXXXXX: the process that made it, for whoever finds one a
  // killed process left; mkdtemp's letters make it no other's, even a process's that reuses the
  // pid. Throws std::system_error when it cannot be made.
  explicit TemporaryFolder(std::string_view prefix) {
    std::string name = (std::filesystem::temp_directory_path() /
                        (std::string(prefix) + "-" + std::to_string(getpid()) + "-XXXXXX"))
                           .string();
    if (!mkdtemp(name.data()))
      throw std::system_error(errno, std::generic_category(),
                              "cannot make a temporary folder " + name);
    path_ = name;
  }
  ~TemporaryFolder() {
    std::error_code ignored;  // a folder already gone, or a file in use, is left to the system
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace tablebase
