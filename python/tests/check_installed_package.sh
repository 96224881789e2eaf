#!/bin/sh
# The python3-syncscope package's files (CMake component `python`) as Debian's python3 sees them:
# installed into a scratch prefix, imported from another folder with only that prefix's
# dist-packages on the path. Checks that the package, both generated wire modules and the protocol
# version come from there, and that Debian's interpreter searches /usr/lib/python3/dist-packages,
# where the .deb puts them (so no PYTHONPATH is needed once it is installed).
#   check_installed_package.sh BUILD_DIR PYTHON3
set -eu
build=${1:?usage: $0 BUILD_DIR PYTHON3}
python=${2:?usage: $0 BUILD_DIR PYTHON3}
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --component python --prefix "$prefix" >/dev/null
site=$prefix/lib/python3/dist-packages
cd /
PYTHONPATH=$site "$python" - "$site" <<'PY'
import sys
site = sys.argv[1]
import syncscope, syncscope.wire, syncscope_pb2, syncscope_protocol
for module in (syncscope, syncscope_pb2, syncscope_protocol):
    assert module.__file__.startswith(site), "%s came from %s, not the installed files" % (module.__name__, module.__file__)
assert hasattr(syncscope_pb2.RunSpec(), "buffer_count"), "the installed wire module is not this build's"
assert callable(syncscope.Worker) and callable(syncscope.parameter_count)
print("installed: syncscope from %s, protocol %d.%d" % (site, syncscope_protocol.PROTOCOL_MAJOR,
                                                        syncscope_protocol.PROTOCOL_MINOR))
PY
"$python" -c 'import sys; assert "/usr/lib/python3/dist-packages" in sys.path, sys.path' ||
  { echo "FAIL: $python does not search /usr/lib/python3/dist-packages, where python3-syncscope installs"; exit 1; }
