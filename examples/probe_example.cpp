// Prints a position's value and DTE and every move's, from tables drop16 solved:
//   probe_example TABLES_DIR FEN
#include <drop16/probe.h>

#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) return std::cerr << "usage: probe_example TABLES_DIR FEN\n", 2;
  try {
    drop16::Tables tables(argv[1]);
    const drop16::Answer a = tables.analyze(argv[2]);
    // A draw has no distance to print.
    const auto value = [](drop16::Value v, int dte) {
      return v == drop16::Value::draw ? std::string("draw")
                                      : drop16::value_name(v) + (" " + std::to_string(dte));
    };
    std::cout << a.fen << " " << value(a.value, a.dte) << "\n";
    for (const auto& m : a.moves) std::cout << m.move << " " << value(m.value, m.dte) << "\n";
  } catch (const std::exception& e) {
    return std::cerr << e.what() << "\n", 1;
  }
}
