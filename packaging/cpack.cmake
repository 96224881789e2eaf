# CPack: a .deb of the engine (and, later, the console). `cpack -G DEB` in the build folder.
set(CPACK_PACKAGE_NAME syncscope)
set(CPACK_PACKAGE_CONTACT "SyncScope developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_GENERATOR DEB)
include(CPack)
