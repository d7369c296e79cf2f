#include <chrono>
#include <cstdio>
#include <cstdlib>
#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "solver/perft.h"
int main(int argc, char** argv) {
  drop::Game g(drop::drop16_variant());
  auto p = g.start();
  int d = argc > 1 ? std::atoi(argv[1]) : 4;
  auto t0 = std::chrono::steady_clock::now();
  auto n = solver::perft(g, p, d);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%llu %.3f s %.3g/s\n", (unsigned long long)n, s, n / s);
}
