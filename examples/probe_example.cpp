// Prints a position's value and DTE and every move's, from tables drop16 solved:
//   probe_example TABLES_DIR FEN
#include <drop16/probe.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 3) return std::cerr << "usage: probe_example TABLES_DIR FEN\n", 2;
  try {
    drop16::Tables tables(argv[1]);
    const drop16::Answer a = tables.analyze(argv[2]);
    std::cout << a.fen << " " << (a.win ? "win" : "loss") << " " << a.dte << "\n";
    for (const auto& m : a.moves)
      std::cout << m.move << " " << (m.win ? "win" : "loss") << " " << m.dte << "\n";
  } catch (const std::exception& e) {
    return std::cerr << e.what() << "\n", 1;
  }
}
