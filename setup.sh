#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: installs what is missing from Debian's packages
# (a second run installs nothing), builds, then runs the main job or the test suite.
#   ./setup.sh run     install what the console and the engine need, build those two programs only, and
#                      open the console on a local cluster of 4 workers training Fashion-MNIST (headless:
#                      only the engine, whose `run` trains the same cluster with a progress bar)
#   ./setup.sh test    install everything (test tools too), build all with -Werror, run the whole ctest suite
#                      (all but the full composition matrix, ctest -L matrix, and the seeds' claims, ctest -L experiment)
#   ./setup.sh deps    install everything only;  ./setup.sh build  install everything and build all
#   ./setup.sh package install, build without CUDA in build-package/, make the .deb files there (cpack)
#   ./setup.sh bench-deps  install the benchmarks' peers too: PyTorch on an optimised BLAS (OpenBLAS;
#                      python3-torch alone pulls in the reference BLAS, ~6 GFLOP/s), then build
# Environment: SYNCSCOPE_GUI=OFF skips Qt (cluster nodes; no tests then), BUILD_DIR (default build),
# RUN_ARGS (extra arguments for `run`, e.g. "--mode asp --lr-modulation dynsgd").
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-run}
gui=${SYNCSCOPE_GUI:-ON}
build_dir=${BUILD_DIR:-build}

# What the engine needs to build and run (every mode).
engine_packages=(build-essential cmake ninja-build pkg-config zlib1g-dev libdnnl-dev libcli11-dev nlohmann-json3-dev libfmt-dev
                 libzmq3-dev cppzmq-dev libssl-dev libsodium-dev libprotobuf-dev protobuf-compiler dataset-fashion-mnist libisal-dev)
# What the console adds: Qt (its translations need the Linguist tools) and the fonts it ships for
# Latin and Chinese text.
console_packages=(qt6-base-dev qt6-charts-dev libqt6opengl6-dev libxkbcommon-dev qt6-tools-dev qt6-tools-dev-tools
                  qt6-l10n-tools libqt6svg6-dev fonts-dejavu-core fonts-wqy-microhei)
# Only for the full build and the tests: man pages, packaging and its metadata checks, the kernel
# stragglers (cpulimit) and network namespaces of the integration tests.
tool_packages=(help2man dpkg-dev file cpulimit iproute2 appstream desktop-file-utils)
# Only where tests are built: the engine's tests' framework (GoogleTest), and the fuzz test
# (tests/fuzz), which builds with clang, its libFuzzer runtime, and clang's OpenMP (the engine's
# configure looks OpenMP up with the compiler in use).
test_packages=(libgtest-dev clang libclang-rt-14-dev libomp-dev
               # the console on a real X server (ctest test_console_on_display, *_x11): a virtual X server, a
               # window manager that maximises and goes full-screen, and the X tools that drive and read it
               xvfb xauth openbox xdotool x11-utils
               # the syncscope Python package's tests (ctest python_worker): Debian's, for /usr/bin/python3
               python3-zmq python3-protobuf python3-torch python3-pytest python3-numpy python3-cryptography)
# launch --slurm against a single-node Slurm the test starts (ctest test_slurm_launch). Installed on
# their own and allowed to fail: munge's post-install script runs `su munge`, which fails where the
# munge user cannot run /bin/sh (a chroot whose / is 0700); the test then skips, saying why.
slurm_packages=(slurm-wlm munge)
# launch --hosts against real sshds that the test starts itself, one per network namespace (ctest
# test_ssh_launch). Installed the same way, and allowed to fail: the test then skips, saying why. The
# test never uses the system's ssh service: where setup.sh installs openssh-server on a machine that
# runs systemd, the service that the package starts is stopped and disabled again.
ssh_packages=(openssh-server openssh-client)
# The compute benchmark's PyTorch peer: torch links libblas.so.3, which Debian resolves to the
# highest-priority alternative; libopenblas0-pthread ranks above the reference libblas3.
bench_packages=(python3-torch python3-numpy libopenblas0-pthread)
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# install_missing PACKAGE...: installs those of the packages that are not installed yet.
install_missing() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then echo "setup: all $# packages present"; return; fi
  echo "setup: installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Everything: the engine, and with the GUI the console, the tools and the test packages.
all_packages() {
  local wanted=("${engine_packages[@]}")
  [ "$gui" = ON ] && wanted+=("${console_packages[@]}" "${tool_packages[@]}" "${test_packages[@]}")
  [ "$mode" = bench-deps ] && wanted+=("${bench_packages[@]}")
  printf '%s\n' "${wanted[@]}"
}

# Packages that one test needs, installed after everything else: a failure leaves the rest
# installed, purges what could not be set up (so apt is not left half-configured; DEPENDENTS names
# the packages they pull in, purged too) and says the test will be skipped. Returns 0 when it
# installed them. install_for_test TEST "DEPENDENTS" PACKAGE...
install_for_test() {
  local test=$1 dependents=$2
  shift 2
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 1
  echo "setup: installing ${missing[*]} (for ctest $test)"
  if as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
    return 0
  fi
  echo "setup: WARNING: ${missing[*]} could not be set up here (see apt's message above); removing them again,"
  echo "setup: and ctest $test will be skipped, saying why"
  # shellcheck disable=SC2086  # DEPENDENTS is a list of package names
  as_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${missing[@]}" $dependents >/dev/null 2>&1 ||
    as_root dpkg --purge --force-all "${missing[@]}" $dependents >/dev/null 2>&1 || true
  return 1
}

install_slurm() {
  install_for_test test_slurm_launch "slurmctld slurmd slurm-client" "${slurm_packages[@]}" || true
}

install_ssh() {
  # The test runs its own sshd: a service the package started under systemd is stopped again.
  if install_for_test test_ssh_launch "" "${ssh_packages[@]}" && [ -d /run/systemd/system ]; then
    as_root systemctl disable --now ssh.service ssh.socket >/dev/null 2>&1 || true
    echo "setup: the ssh service that openssh-server started is stopped and disabled (the test runs its own sshd)"
  fi
}

build() {
  local werror=$1 testing=ON
  [ "$gui" = ON ] || testing=OFF
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSYNCSCOPE_GUI="$gui" \
        -DBUILD_TESTING="$testing" -DSYNCSCOPE_WERROR="$werror" "${@:2}"
  cmake --build "$build_dir" --parallel "$(nproc)"
}

# The main job's build: no tests, and only the programs it runs.
build_programs() {
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSYNCSCOPE_GUI="$1" -DBUILD_TESTING=OFF -DSYNCSCOPE_WERROR=OFF
  cmake --build "$build_dir" --parallel "$(nproc)" --target "${@:2}"
}

mapfile -t everything < <(all_packages)
case "$mode" in
  deps) install_missing "${everything[@]}" ;;
  build) install_missing "${everything[@]}"; build OFF -DSYNCSCOPE_BENCHMARKS=ON ;;
  bench-deps) install_missing "${everything[@]}"; build OFF -DSYNCSCOPE_BENCHMARKS=ON ;;
  run)
    if [ "$gui" = ON ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
      install_missing "${engine_packages[@]}" "${console_packages[@]}"
      build_programs ON syncscope syncscope-engine
      exec "$build_dir/app/syncscope" --local 4  # the console, on a local cluster
    fi
    # No display (or no GUI wanted): the same local cluster, headless, with a progress bar.
    install_missing "${engine_packages[@]}"
    build_programs OFF syncscope-engine
    # shellcheck disable=SC2086  # RUN_ARGS is a list of flags
    exec "$build_dir/app/syncscope-engine" run --workers 4 --model mlp --mode bsp --epochs 3 ${RUN_ARGS:-} ;;
  test)
    # The benchmarks are not built here (about 70 s of CI's 30 minutes); ./setup.sh build builds them.
    install_missing "${everything[@]}"; install_slurm; install_ssh; build ON -DSYNCSCOPE_BENCHMARKS=OFF
    # The full composition matrix (label matrix, about 8 minutes) is left to `ctest -L matrix`; the
    # suite runs two of its cells (test_composition_matrix_sample).
    # The seeds' claims (label experiment, `ctest -L experiment`, about 7 minutes) are left out the same way.
    cd "$build_dir" && exec ctest --output-on-failure -LE '^(matrix|experiment)$' ;;
  package)  # Debian's packages carry no CUDA: the packaged engine is the CPU build
    build_dir=${BUILD_DIR:-build-package}
    install_missing "${engine_packages[@]}" "${console_packages[@]}" "${tool_packages[@]}"
    build OFF -DSYNCSCOPE_CUDA=OFF -DBUILD_TESTING=OFF
    cd "$build_dir" && cpack -G DEB && ls -l ./*.deb ;;
  *) echo "usage: $0 run|test|deps|build|bench-deps|package  (see the comment at the top of $0)" >&2; exit 2 ;;
esac
