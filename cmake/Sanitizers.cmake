# ZMPI_SANITIZE=address -> ASan+UBSan; ZMPI_SANITIZE=thread -> TSan. Applied globally so
# the MPI library, the launcher and the test programs are all instrumented.
# ZMPI_SANITIZE_FLAGS is the same flag for what is built outside CMake's targets (programs
# linked by zmpicc or by Open MPI's mpicc in the tests): a sanitizer runtime must come
# first in a process, so a program that loads a sanitized libmpi.so.40 is built with it too.
set(ZMPI_SANITIZE_FLAGS "")
if(ZMPI_SANITIZE STREQUAL "address")
  set(ZMPI_SANITIZE_FLAGS "-fsanitize=address,undefined")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(ZMPI_SANITIZE STREQUAL "thread")
  set(ZMPI_SANITIZE_FLAGS "-fsanitize=thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT ZMPI_SANITIZE STREQUAL "")
  message(FATAL_ERROR "ZMPI_SANITIZE must be '', 'address' or 'thread', not '${ZMPI_SANITIZE}'")
endif()

# -DZMPI_FUZZ=ON (clang): every library is compiled with libFuzzer's coverage
# instrumentation, so the fuzz targets (tests/*/fuzz) are guided by the code they call,
# not only by their own file; the targets themselves link -fsanitize=fuzzer.
if(ZMPI_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
