# Generated gRPC stubs of proto/meridian.proto (meridian_pb2, meridian_pb2_grpc), written here by
# the package build (setup.py); not in git.
