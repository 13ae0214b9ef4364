// The one Catch2 (v2) main shared by every zmpi test program: compiling Catch's main is
// slow, so it is built once into zmpi_catch_main and linked everywhere.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
