# One warning policy for every zmpi target; warnings are errors unless ZMPI_WERROR=OFF.
add_library(zmpi_warnings INTERFACE)
target_compile_options(zmpi_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-unused-parameter>
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wno-unused-parameter>)
if(ZMPI_WERROR)
  target_compile_options(zmpi_warnings INTERFACE -Werror)
endif()
