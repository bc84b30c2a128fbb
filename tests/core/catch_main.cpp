// Catch2's main, for builds that cannot link Debian's libCatch2WithMain.a
// (x86-64 only): the 32-bit preset, sanitize32.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
