# Debian packages (CPack, one .deb per component): `syncscope-engine` (the engine CLI, no Qt),
# `syncscope` (the console, syncscope-plot, desktop file, icon, AppStream metainfo) and
# `python3-syncscope` (the Python package, python/CMakeLists.txt). `./setup.sh package` builds them;
# Depends come from dpkg-shlibdeps, plus what no linker sees (below).
if(SYNCSCOPE_GUI)
  set(SYNCSCOPE_APP_ID org.syncscope.SyncScope)  # the desktop file, icon and AppStream id
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${SYNCSCOPE_APP_ID}.metainfo.xml
                 ${PROJECT_BINARY_DIR}/packaging/${SYNCSCOPE_APP_ID}.metainfo.xml @ONLY)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/${SYNCSCOPE_APP_ID}.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT console)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/${SYNCSCOPE_APP_ID}.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT console)
  install(FILES ${PROJECT_BINARY_DIR}/packaging/${SYNCSCOPE_APP_ID}.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT console)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME syncscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "SyncScope developers")
set(CPACK_PACKAGE_VENDOR "SyncScope developers")
# CPackDeb puts the summary above each component's description unless it is CPack's placeholder;
# each component's description below starts with its own summary line instead.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL engine)
if(SYNCSCOPE_PROTOC)
  list(APPEND CPACK_COMPONENTS_ALL python)
endif()
if(SYNCSCOPE_GUI)
  list(APPEND CPACK_COMPONENTS_ALL console)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)

set(CPACK_DEBIAN_ENGINE_PACKAGE_NAME syncscope-engine)
# Recommended, not required: `train`, `run` and `work` read Fashion-MNIST from Debian's dataset
# package by default, but take --data DIR, and `serve` on its own, `export` and `--help` need no data.
set(CPACK_DEBIAN_ENGINE_PACKAGE_RECOMMENDS dataset-fashion-mnist)
set(CPACK_COMPONENT_ENGINE_DESCRIPTION
    "SyncScope training engine: coordinator, workers and the command line
The engine of SyncScope: a parameter server (coordinator) and worker processes that train
on Fashion-MNIST over ZeroMQ in eight synchronisation modes (bulk synchronous, asynchronous,
stale-synchronous, hybrid groups, backup workers, n-softsync, elastic, adaptive).
syncscope-engine trains, serves, works, runs local clusters, records runs, and exports
recordings as CSV, JSON Lines, TensorBoard event files or Chrome/Perfetto traces.
It needs no Qt and no display.")

set(CPACK_DEBIAN_CONSOLE_PACKAGE_NAME syncscope)
# The console starts syncscope-engine for local clusters (not a linked library, so said here).
set(CPACK_DEBIAN_CONSOLE_PACKAGE_DEPENDS "syncscope-engine (= ${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE})")
set(CPACK_DEBIAN_CONSOLE_PACKAGE_RECOMMENDS fonts-dejavu-core)
set(CPACK_COMPONENT_CONSOLE_DESCRIPTION
    "SyncScope console: watch and steer distributed training live
A Qt desktop console for SyncScope's training engine: samples per second, staleness,
loss, accuracy and each worker's compute, communication and waiting time, with live
switching of the synchronisation mode, replay of run recordings and classroom scenarios.
Also syncscope-plot, which draws an experiment's results as PNG charts.")
set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-syncscope)
set(CPACK_DEBIAN_PYTHON_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
# Imported, not linked, so said here: Debian 12's packages of what python/pyproject.toml depends on.
# The engine is recommended: a worker joins a coordinator that may run on another machine.
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "python3 (>= 3.11), python3-zmq, python3-protobuf (>= 3.20), python3-numpy, python3-torch, python3-cryptography")
set(CPACK_DEBIAN_PYTHON_PACKAGE_RECOMMENDS "syncscope-engine (= ${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE})")
set(CPACK_COMPONENT_PYTHON_DESCRIPTION
    "SyncScope for PyTorch: your training script as a worker of a SyncScope run
The syncscope Python package: a PyTorch model of your own trains as a worker of SyncScope's
parameter server (Horovod's DistributedOptimizer shape), with a DataLoader sampler that follows
the coordinator's shard and batch size, an evaluator, and steering from Python. Its buffers
(BatchNorm's running statistics) travel with the model. Scripts started by `syncscope-engine run`
or `launch --worker-command` find the run in their environment.")
include(CPack)
