#!/usr/bin/env bash
# The compiler wrappers and the install: zmpicc/zmpicxx from the build tree and from a
# `cmake --install` prefix compile, link (run path to zmpi's libmpi.so.40) and run through
# zmpirun; -showme and friends print what Open MPI's wrappers print; pkg-config, CMake's
# FindMPI (MPI_C_COMPILER=zmpicc) and find_package(zmpi) all work from the prefix.
# Needs BUILD_DIR (the build tree) and SOURCE_DIR (the source tree).
source "$(dirname "$0")/lib.sh"
: "${BUILD_DIR:?}" "${SOURCE_DIR:?}"
hello=$SOURCE_DIR/examples/hello.c

# check_binary NAME BINARY LIBDIR: links zmpi's libmpi from LIBDIR and runs on 2 ranks.
check_binary() {
  local name=$1 binary=$2 libdir=$3
  local loaded
  loaded=$(ldd "$binary" | sed -n 's/^\s*libmpi\.so\.40 => \(\S*\) .*/\1/p')
  if [[ -n $loaded && $(readlink -f "$loaded") == $(readlink -f "$libdir/libmpi.so.40") ]]; then
    pass "$name loads $libdir/libmpi.so.40"
  else
    fail "$name loads '$loaded', not $libdir/libmpi.so.40"
  fi
  run_job "$name" -np 2 "$binary"
  expect_rc "$name" 0
  expect_lines "$name" out "Hello from rank" 2
  expect_text "$name" out "Library: zmpi"
}

# Build tree.
wrapper=$BUILD_DIR/bin/zmpicc
expect_show() {
  if [[ "$("$wrapper" "$1")" == "$2" ]]; then pass "zmpicc $1"; else fail "zmpicc $1 printed '$("$wrapper" "$1")', expected '$2'"; fi
}
libdir=$(readlink -f "$BUILD_DIR/lib")
incdir=$("$wrapper" --showme:incdirs)
expect_show --showme:libdirs "$libdir"
expect_show --showme:libs "mpi"
expect_show -showme:compile "-I$incdir -DOMPI_SKIP_MPICXX=1"
expect_show --showme:link "-L$libdir -Wl,-rpath,$libdir -Wl,--enable-new-dtags -lmpi"
[[ -f $incdir/mpi.h ]] && pass "mpi.h is in $incdir" || fail "no mpi.h in $incdir"
shown=$("$wrapper" -show -c x.c)
[[ $shown == *" -c x.c" && $shown != *-lmpi* ]] && pass "-c: no link flags" || fail "-show -c: $shown"
shown=$("$wrapper" --showme x.c -o x)
[[ $shown == *"x.c -o x -L$libdir"*"-lmpi"* ]] && pass "link line order" || fail "--showme: $shown"
"$wrapper" --showme:bogus >/dev/null 2>&1 && fail "--showme:bogus accepted" || pass "--showme:bogus refused"

"$wrapper" "$hello" -o "$WORK/hello_build" && check_binary hello_build "$WORK/hello_build" "$libdir"
printf '#include <mpi.h>\n#include <cstdio>\nint main(int c, char** v) { MPI_Init(&c, &v); int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);\n std::printf("Hello from rank %%d\\nLibrary: zmpi\\n", r); MPI_Finalize(); }\n' >"$WORK/hello.cc"
"$BUILD_DIR/bin/zmpicxx" "$WORK/hello.cc" -o "$WORK/hello_cxx" && check_binary hello_cxx "$WORK/hello_cxx" "$libdir"

# Installed prefix.
prefix=$WORK/prefix
cmake --install "$BUILD_DIR" --prefix "$prefix" >"$WORK/install.log" 2>&1 || fail "cmake --install: $(tail -5 "$WORK/install.log")"
plib=$(dirname "$(find "$prefix" -name libmpi.so.40 | head -1)")
ZMPIRUN=$prefix/bin/zmpirun
"$prefix/bin/zmpicc" "$hello" -o "$WORK/hello_installed" && check_binary hello_installed "$WORK/hello_installed" "$plib"
run_job ldpath -np 1 sh -c 'echo "$LD_LIBRARY_PATH"'
expect_text ldpath out "$plib"

if mpicc.openmpi ${ZMPI_SANITIZE_FLAGS:-} "$hello" -o "$WORK/hello_ompi" 2>/dev/null; then
  run_job ompi -np 2 "$WORK/hello_ompi"
  expect_rc ompi 0
  expect_text ompi out "Library: zmpi"
fi

flags=$(PKG_CONFIG_PATH=$plib/pkgconfig pkg-config --cflags --libs zmpi)
cc ${ZMPI_SANITIZE_FLAGS:-} "$hello" -o "$WORK/hello_pc" $flags && check_binary hello_pc "$WORK/hello_pc" "$plib"

for mode in findmpi package; do
  if cmake -S "$SOURCE_DIR/tests/runtime/consumer" -B "$WORK/consumer-$mode" -DMODE=$mode -DEXAMPLE_SOURCE="$hello" \
    -DMPI_C_COMPILER="$prefix/bin/zmpicc" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_FLAGS="${ZMPI_SANITIZE_FLAGS:-}" \
    >"$WORK/$mode.log" 2>&1 &&
    cmake --build "$WORK/consumer-$mode" >>"$WORK/$mode.log" 2>&1; then
    check_binary "consumer_$mode" "$WORK/consumer-$mode/consumer_hello" "$plib"
  else
    fail "consumer project ($mode): $(tail -15 "$WORK/$mode.log")"
  fi
done
finish
