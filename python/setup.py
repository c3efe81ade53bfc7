"""Build step of the isolda Python package: the Go core as a shared library.

`pip install --no-build-isolation ./python` (or `pip wheel`) runs build_py,
which runs `go build -buildmode=c-shared ./capi` in the Go module (the
folder above this one, or $ISOLDA_GO_ROOT) and puts the library inside the
package. The wheel is tagged py3-none-<platform>: the library does not
depend on the Python version (it is loaded with ctypes), only on the
operating system and processor; $GOOS/$GOARCH with a C cross-compiler in
$CC build it for another platform (see README.md, section Python).
"""

import os
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))


def library_name(goos=None):
    """The file name of the shared library on the target system."""
    goos = goos or os.environ.get("GOOS") or {"darwin": "darwin", "win32": "windows"}.get(sys.platform, "linux")
    return {"darwin": "_isolda.dylib", "windows": "_isolda.dll"}.get(goos, "_isolda.so")


class BuildGo(build_py):
    """build_py, then the Go core into the package."""

    def run(self):
        super().run()
        root = os.environ.get("ISOLDA_GO_ROOT") or os.path.dirname(HERE)
        if not os.path.exists(os.path.join(root, "go.mod")) or not os.path.isdir(os.path.join(root, "capi")):
            raise SystemExit(
                "isolda: the Go module with capi/ is not at %s: build from a checkout of the repository "
                "(pip install ./python), or set ISOLDA_GO_ROOT" % root
            )
        out = os.path.join(os.path.abspath(self.build_lib), "isolda", library_name())
        os.makedirs(os.path.dirname(out), exist_ok=True)
        cmd = ["go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "./capi"]
        self.announce("running %s in %s" % (" ".join(cmd), root), level=2)
        env = dict(os.environ, CGO_ENABLED="1")
        try:
            subprocess.check_call(cmd, cwd=root, env=env)
        except FileNotFoundError:
            raise SystemExit("isolda: `go` is not on the PATH: the package builds the Go core (Go 1.26 or later)")
        header = os.path.splitext(out)[0] + ".h"
        if os.path.exists(header):
            os.remove(header)


class BinaryDistribution(Distribution):
    """A distribution with a platform-specific library inside."""

    def has_ext_modules(self):
        return True


cmdclass = {"build_py": BuildGo}
try:
    from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        """A py3-none-PLATFORM wheel: any Python 3, one platform."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = PlatformWheel
except ImportError:  # no wheel package: pip install still works
    pass

setup(cmdclass=cmdclass, distclass=BinaryDistribution)
