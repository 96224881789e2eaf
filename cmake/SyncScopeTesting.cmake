# syncscope_add_engine_test(NAME SOURCE LABEL [OWN_MAIN] [LIBS ...]): one GoogleTest executable per
# thing under test in the engine, linking no Qt, so an engine-only build (a cluster node's, without
# Qt) builds and runs them too. GTest::gtest_main supplies main(); OWN_MAIN: the test has its own
# (linked with GTest::gtest). One ctest entry per executable, named and labelled as the test.
function(syncscope_add_engine_test name source label)
  cmake_parse_arguments(PARSE_ARGV 3 arg "OWN_MAIN" "" "")
  add_executable(${name} ${source})
  if(arg_OWN_MAIN)
    target_link_libraries(${name} PRIVATE GTest::gtest ${arg_UNPARSED_ARGUMENTS})
  else()
    target_link_libraries(${name} PRIVATE GTest::gtest_main ${arg_UNPARSED_ARGUMENTS})
  endif()
  # The tests' shared helpers (tests/unit/test_support.h, tests/integration/*.h): the engine's
  # TemporaryFolder, and the project's folder for their includes.
  target_link_libraries(${name} PRIVATE syncscope::core)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${name} PRIVATE
    SYNCSCOPE_ENGINE_BINARY="$<TARGET_FILE:syncscope-engine>"
    SYNCSCOPE_FASHION_MNIST_DIR="${SYNCSCOPE_FASHION_MNIST_DIR}")
  add_dependencies(${name} syncscope-engine)  # integration tests run the real binary
  syncscope_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS ${label})
endfunction()

# syncscope_add_test(NAME SOURCE LABEL [LIBS ...]): one QtTest executable per thing under test, for
# the console's tests (they need Qt anyway).
function(syncscope_add_test name source label)
  add_executable(${name} ${source})
  set_target_properties(${name} PROPERTIES AUTOMOC ON)
  target_link_libraries(${name} PRIVATE Qt6::Test ${ARGN})
  target_compile_definitions(${name} PRIVATE
    SYNCSCOPE_ENGINE_BINARY="$<TARGET_FILE:syncscope-engine>"
    SYNCSCOPE_FASHION_MNIST_DIR="${SYNCSCOPE_FASHION_MNIST_DIR}")
  add_dependencies(${name} syncscope-engine)  # integration tests run the real binary
  syncscope_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS ${label} ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
endfunction()
