# Third-party libraries, all from Debian's packages (setup.sh installs them). The engine needs
# no Qt; Qt is looked up only for the console and for the QtTest-based tests.
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3 REQUIRED)  # experiment specs (JSON); Debian: nlohmann-json3-dev
find_package(fmt REQUIRED)  # the one number and text formatter; Debian: libfmt-dev
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Protobuf REQUIRED)  # CMake's FindProtobuf: Debian ships no protobuf config file
find_package(PkgConfig REQUIRED)
pkg_check_modules(ZMQ REQUIRED IMPORTED_TARGET libzmq)
# OpenSSL's libcrypto: the sealed frames' AEADs, X25519 and HKDF (engine/net/frame_seal.h). Debian:
# libssl-dev. libsodium (Debian's libzmq is built on it for CURVE) only as bench_transport's peer.
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
pkg_check_modules(SODIUM IMPORTED_TARGET libsodium)
find_path(CPPZMQ_INCLUDE_DIR zmq.hpp)
if(NOT CPPZMQ_INCLUDE_DIR)
  message(FATAL_ERROR "cppzmq (zmq.hpp) not found: install cppzmq-dev (./setup.sh does)")
endif()
# oneDNN for the CPU backend's GEMMs. Found by hand: Debian's dnnl-config.cmake demands the OpenCL
# headers for its GPU runtime, which the CPU backend never uses.
find_path(DNNL_INCLUDE_DIR dnnl.h)
find_library(DNNL_LIBRARY dnnl)
if(NOT DNNL_INCLUDE_DIR OR NOT DNNL_LIBRARY)
  message(FATAL_ERROR "oneDNN not found: install libdnnl-dev (./setup.sh does)")
endif()
add_library(syncscope_dnnl INTERFACE)
target_include_directories(syncscope_dnnl SYSTEM INTERFACE ${DNNL_INCLUDE_DIR})
target_link_libraries(syncscope_dnnl INTERFACE ${DNNL_LIBRARY})

if(SYNCSCOPE_GUI)
  find_package(Qt6 6.4 REQUIRED COMPONENTS Core Widgets Charts)
endif()
if(BUILD_TESTING)
  find_package(Qt6 6.4 QUIET COMPONENTS Core Test)
  if(NOT Qt6Test_FOUND)
    message(STATUS "Qt6 Test not found: the console's tests are left out (the engine's, on GoogleTest, "
                   "are built). Install qt6-base-dev for them (./setup.sh does)")
  endif()
endif()
