// Damaging a table file on purpose, for the tests that check a reader refuses what no writer
// made: the file's bytes read and written back whole, and every byte flipped in turn.
#pragma once

#include <catch2/catch.hpp>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "tablebase/table_file.h"

namespace test_support {

inline std::vector<char> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
inline void write_bytes(const std::filesystem::path& p, const std::vector<char>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

// Flips one bit of each byte of `file` (whose good bytes are `good`) in turn and checks that
// opens_and_reads() then throws a TableError naming the file. Leaves the last damaged copy there.
template <typename OpensAndReads>
void check_every_flipped_byte_refused(const std::filesystem::path& file,
                                      const std::vector<char>& good,
                                      OpensAndReads&& opens_and_reads) {
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::vector<char> bad = good;
    bad[i] ^= 0x20;
    write_bytes(file, bad);
    INFO("byte " << i << " flipped");
    try {
      opens_and_reads();
      FAIL("accepted");
    } catch (const tablebase::TableError& e) {
      CHECK_THAT(e.what(), Catch::Matchers::StartsWith(file.string()));
    }
  }
}

}  // namespace test_support
