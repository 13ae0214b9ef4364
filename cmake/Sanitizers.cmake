# ZMPI_SANITIZE=address -> ASan+UBSan; ZMPI_SANITIZE=thread -> TSan. Applied globally so
# the MPI library, the launcher and the test programs are all instrumented.
# ZMPI_SANITIZE_FLAGS is the same flag for what is built outside CMake's targets (programs
# linked by zmpicc or by Open MPI's mpicc in the tests): a sanitizer runtime must come
# first in a process, so a program that loads a sanitized libmpi.so.40 is built with it too.
# ZMPI_SANITIZE_LINK_FLAGS is what such a program also needs when linked by this compiler.
set(ZMPI_SANITIZE_FLAGS "")
set(ZMPI_SANITIZE_LINK_FLAGS "")
if(ZMPI_SANITIZE STREQUAL "address")
  set(ZMPI_SANITIZE_FLAGS "-fsanitize=address,undefined")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    # clang links UBSan's C++ part (the vptr checks libmpi.so's C++ code calls) only into
    # programs it links as C++, and GCC's runtime (a program built by mpicc.openmpi or cc)
    # has it anyway: a C program clang links gets it, with the libstdc++ it needs.
    set(ZMPI_SANITIZE_LINK_FLAGS "-fsanitize-link-c++-runtime -lstdc++")
    add_link_options("$<$<LINK_LANGUAGE:C>:-fsanitize-link-c++-runtime;-lstdc++>")
  endif()
elseif(ZMPI_SANITIZE STREQUAL "thread")
  set(ZMPI_SANITIZE_FLAGS "-fsanitize=thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT ZMPI_SANITIZE STREQUAL "")
  message(FATAL_ERROR "ZMPI_SANITIZE must be '', 'address' or 'thread', not '${ZMPI_SANITIZE}'")
endif()

# -DZMPI_FUZZ=ON (clang): the libraries the fuzz targets (tests/*/fuzz) link are compiled
# with libFuzzer's coverage instrumentation (zmpi_fuzz_coverage(), called by transport/ and
# mpi/ for the whole folder, zmpi_fuzz_coverage(TARGETS...) by runtime/ for the agent's
# libraries), so the targets are guided by the decoders they call, not only by their own
# file; the targets themselves link -fsanitize=fuzzer. Not the tests, examples,
# benchmarks or zmpirun, which no fuzz target runs: instrumentation adds about a quarter to
# a clang -O1 compile (zmpid's unity batch: 34 s with, 27 without), and instrumenting the
# tests, examples and benchmarks too had cost the ASan tree 80 of its 1020 s of compile steps.
function(zmpi_fuzz_coverage)
  if(NOT ZMPI_FUZZ)
    return()
  endif()
  if(ARGN)
    foreach(target IN LISTS ARGN)
      target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
    endforeach()
  else()
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()
endfunction()
