# Man pages generated from each program's own --help and --version by help2man (Debian: help2man),
# so the pages never drift from the flags. A program with subcommands gets one page holding every
# subcommand's help. Without help2man the build goes on without pages and says so.
find_program(HELP2MAN_EXECUTABLE help2man)
if(NOT HELP2MAN_EXECUTABLE)
  message(WARNING "help2man not found: no man pages. Install help2man (./setup.sh does)")
endif()

# syncscope_add_manpage(TARGET SUMMARY COMPONENT): builds man/TARGET.1 and installs it with COMPONENT.
function(syncscope_add_manpage target summary component)
  if(NOT HELP2MAN_EXECUTABLE)
    return()
  endif()
  set(page ${PROJECT_BINARY_DIR}/man/${target}.1)
  add_custom_command(
    OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -DBINARY=$<TARGET_FILE:${target}> -DHELP2MAN=${HELP2MAN_EXECUTABLE}
            "-DSUMMARY=${summary}" -DOUTPUT=${page} -P ${PROJECT_SOURCE_DIR}/cmake/make_manpage.cmake
    DEPENDS ${target} ${PROJECT_SOURCE_DIR}/cmake/make_manpage.cmake
    COMMENT "help2man: ${target}.1"
    VERBATIM)
  add_custom_target(${target}_manpage ALL DEPENDS ${page})
  install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT ${component})
endfunction()
