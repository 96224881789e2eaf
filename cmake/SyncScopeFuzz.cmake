# SYNCSCOPE_FUZZ: the libFuzzer targets of tests/fuzz. libFuzzer ships with clang only, so AUTO
# builds them when the C++ compiler is clang and can link a fuzzer; ON insists; OFF skips. The
# main build uses gcc: there ctest's fuzz test builds them in a clang folder of its own
# (tests/fuzz/run_fuzz_smoke.sh).
set(SYNCSCOPE_HAVE_FUZZ OFF)
if(NOT SYNCSCOPE_FUZZ STREQUAL "OFF")
  set(SYNCSCOPE_FUZZ_DISABLED_REASON "the C++ compiler is ${CMAKE_CXX_COMPILER_ID}, not clang")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    include(CheckCXXSourceCompiles)
    set(CMAKE_REQUIRED_FLAGS -fsanitize=fuzzer)
    set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=fuzzer)
    check_cxx_source_compiles(
      "#include <cstddef>\n#include <cstdint>\nextern \"C\" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }"
      SYNCSCOPE_CLANG_LINKS_LIBFUZZER)
    unset(CMAKE_REQUIRED_FLAGS)
    unset(CMAKE_REQUIRED_LINK_OPTIONS)
    if(SYNCSCOPE_CLANG_LINKS_LIBFUZZER)
      set(SYNCSCOPE_HAVE_FUZZ ON)
    else()
      set(SYNCSCOPE_FUZZ_DISABLED_REASON "clang cannot link libFuzzer: install libclang-rt-14-dev (./setup.sh does)")
    endif()
  endif()
  if(NOT SYNCSCOPE_HAVE_FUZZ AND SYNCSCOPE_FUZZ STREQUAL "ON")
    message(FATAL_ERROR "SYNCSCOPE_FUZZ=ON but ${SYNCSCOPE_FUZZ_DISABLED_REASON}; configure with CC=clang "
                        "CXX=clang++ (Debian: clang, libclang-rt-14-dev) or use -DSYNCSCOPE_FUZZ=AUTO")
  elseif(NOT SYNCSCOPE_HAVE_FUZZ)
    message(STATUS "SyncScope: no fuzz targets in this build (${SYNCSCOPE_FUZZ_DISABLED_REASON}); ctest -L fuzz "
                   "builds them with clang")
  endif()
endif()

# syncscope_add_fuzzer(NAME SOURCES ... LIBS ...): one libFuzzer executable. The decoder sources it
# fuzzes are compiled into it, with coverage for the fuzzer and ASan + UBSan (any UB aborts, so
# libFuzzer sees it); the libraries it links stay uninstrumented, so a clang main build is not
# turned into a sanitizer build by AUTO.
function(syncscope_add_fuzzer name)
  cmake_parse_arguments(FUZZ "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${FUZZ_SOURCES})
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
                                         -fno-omit-frame-pointer -g)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PRIVATE ${FUZZ_LIBS})
  syncscope_warnings(${name})
endfunction()
