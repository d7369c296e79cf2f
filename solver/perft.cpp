#include "solver/perft.h"

namespace solver {

void throw_perft_overflow(int depth) {
  throw PerftOverflow(depth);
}

}  // namespace solver
