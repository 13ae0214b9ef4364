# Precompiled headers (-DZMPI_PCH=ON; scripts/test.sh turns them on for its -O1 sanitizer
# and fuzz builds): the system headers that most zmpi sources include -- the standard
# library, cppzmq, spdlog (through transport/log.h), Open MPI's mpi.h, Catch2 -- are parsed
# once per target instead of once per source, a quarter less compile time. Only system
# headers, never a project header, and only into C++ sources. Off by default. GCC 12 reports
# its known false -Warray-bounds, -Wstringop-overflow and -Wstringop-overread on
# std::string's inlined memcpy from a precompiled <string> (the same header included as text
# is a system header and stays quiet), which -Werror makes fatal: with GCC, the targets that
# use a precompiled header go without those three (the plain build, no precompiled headers,
# keeps them, -Werror and all). scripts/lint.sh removes the forced include from the compile
# commands it checks, so clang-tidy and cppcheck see each source with its own includes.
option(ZMPI_PCH "Precompile the common system headers of the C++ targets (for -O1 builds)" OFF)
set(ZMPI_PCH_HEADERS
  <algorithm> <array> <atomic> <chrono> <condition_variable> <cstddef> <cstdint> <cstdio> <cstdlib>
  <cstring> <deque> <functional> <map> <memory> <mutex> <optional> <set> <stdexcept> <string>
  <string_view> <thread> <utility> <vector> <zmq.hpp> <spdlog/spdlog.h>)

# zmpi_pch(TARGET [EXTRA_HEADER...]): TARGET's C++ sources get the common headers and the
# extra ones (e.g. <mpi.h>, <catch2/catch.hpp>) precompiled.
function(zmpi_pch target)
  if(NOT ZMPI_PCH)
    return()
  endif()
  set(headers)
  foreach(header IN LISTS ZMPI_PCH_HEADERS ARGN)
    list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:${header}>")
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
  zmpi_pch_warnings(${target})
endfunction()

# GCC's false warnings from a precompiled <string> (above), for TARGET's C++ sources.
function(zmpi_pch_warnings target)
  target_compile_options(${target} PRIVATE
    "$<$<AND:$<CXX_COMPILER_ID:GNU>,$<COMPILE_LANGUAGE:CXX>>:-Wno-array-bounds;-Wno-stringop-overflow;-Wno-stringop-overread>")
endfunction()

# zmpi_pch_reuse(TARGET FROM): TARGET, compiled with exactly FROM's flags (the same
# libraries linked, no options of its own), uses FROM's precompiled header: for the
# one-source test programs, where a header of their own would cost more than it saves.
function(zmpi_pch_reuse target from)
  if(ZMPI_PCH)
    target_precompile_headers(${target} REUSE_FROM ${from})
    zmpi_pch_warnings(${target})
  endif()
endfunction()
