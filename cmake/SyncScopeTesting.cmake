# syncscope_add_test(NAME SOURCE LABEL [LIBS ...]): one QtTest executable per thing under test.
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
