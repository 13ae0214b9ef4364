// Catch2's main for the runtime unit tests (used when the tree has no shared one).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
