# Build step of meridian-client: generates meridian/_proto/meridian_pb2.py and
# meridian_pb2_grpc.py from proto/meridian.proto with grpcio-tools (a build requirement) into
# the build tree, and copies the .proto into source distributions so an sdist builds alone.
# The runtime protobuf must be at least the version the generator was built with, so that
# bound is added to the dependencies here.
import os
import shutil
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
# In the repository the proto lives two levels up; in an sdist, beside setup.py.
PROTO_CANDIDATES = [
    os.path.join(HERE, "proto", "meridian.proto"),
    os.path.join(HERE, "..", "..", "proto", "meridian.proto"),
]
PACKAGE_DIR = "meridian/_proto"  # where the generated modules go, as a path under the root


def find_proto():
    for path in PROTO_CANDIDATES:
        if os.path.isfile(path):
            return os.path.normpath(path)
    raise SystemExit("meridian-client: proto/meridian.proto not found; build from the "
                     "Meridian repository (client/python) or from its sdist")


def generate_stubs(out_root):
    """Runs protoc (from grpc_tools) on a copy of the proto placed at meridian/_proto/, so the
    generated grpc module imports its message module by the package path."""
    import grpc_tools
    from grpc_tools import protoc

    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, PACKAGE_DIR)
        os.makedirs(target)
        shutil.copy(find_proto(), os.path.join(target, "meridian.proto"))
        well_known = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
        os.makedirs(os.path.join(out_root, PACKAGE_DIR), exist_ok=True)
        rc = protoc.main(["grpc_tools.protoc", f"-I{tmp}", f"-I{well_known}",
                          f"--python_out={out_root}", f"--grpc_python_out={out_root}",
                          os.path.join(PACKAGE_DIR, "meridian.proto")])
        if rc != 0:
            raise SystemExit(f"meridian-client: protoc failed ({rc})")


class BuildPyWithStubs(build_py):
    def run(self):
        super().run()
        generate_stubs(self.build_lib)


class SdistWithProto(sdist):
    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        os.makedirs(os.path.join(base_dir, "proto"), exist_ok=True)
        shutil.copy(find_proto(), os.path.join(base_dir, "proto", "meridian.proto"))


def protobuf_floor():
    try:
        from google.protobuf import __version__ as v
        return ".".join(v.split(".")[:2])
    except ImportError:
        return "4.21"


setup(
    install_requires=["grpcio>=1.60", f"protobuf>={protobuf_floor()}"],
    cmdclass={"build_py": BuildPyWithStubs, "sdist": SdistWithProto},
)
