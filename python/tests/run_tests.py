#!/usr/bin/python3
"""ctest's entry to the Python package's tests: skips (exit 77, the reason on one line) where a
dependency is missing, else runs pytest on this folder with the arguments given."""

import importlib
import os
import sys

SKIPPED = 77
NEEDED = [("torch", "python3-torch"), ("zmq", "python3-zmq"), ("google.protobuf", "python3-protobuf"),
          ("numpy", "python3-numpy"), ("pytest", "python3-pytest"), ("cryptography", "python3-cryptography")]


def main():
    missing = []
    for module, package in NEEDED:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(package)
    if missing:
        print("skipped: %s not installed for %s (`sudo apt-get install %s`, or ./setup.sh deps)"
              % (", ".join(missing), sys.executable, " ".join(missing)))
        return SKIPPED
    import pytest
    here = os.path.dirname(os.path.abspath(__file__))
    # No cache folder in the source tree; the tests' own output goes to pytest's temporary folders.
    return pytest.main(["-p", "no:cacheprovider", "-rsP", here] + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
