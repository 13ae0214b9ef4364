# ZMPI_SANITIZE=address -> ASan+UBSan; ZMPI_SANITIZE=thread -> TSan. Applied globally so
# the MPI library, the launcher and the test programs are all instrumented.
if(ZMPI_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(ZMPI_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT ZMPI_SANITIZE STREQUAL "")
  message(FATAL_ERROR "ZMPI_SANITIZE must be '', 'address' or 'thread', not '${ZMPI_SANITIZE}'")
endif()
