// The one Google Benchmark main; suites are bench/*_bench.cpp.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
