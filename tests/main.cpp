// The one Catch2 main of the test binary; test files are tests/*_test.cpp.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
