# A gRPC server in front of meridiand for the driver's session-stream tests: it forwards the Sql
# RPCs the driver uses (call metadata, status and details included) and counts them, so a test
# can see how many ExecuteSession streams and ExecuteStream calls a connection made. It can play
# an older server without ExecuteSession (UNIMPLEMENTED), a server whose Cancel matches nothing
# and one that ignores ExecuteRequest.timeout_ms.
import collections
from concurrent import futures

import grpc

from meridian._proto import meridian_pb2 as pb
from meridian._proto import meridian_pb2_grpc as pb_grpc

_SECRET = "x-meridian-session-secret"


class SqlProxy(pb_grpc.SqlServicer):
    def __init__(self, upstream_port, refuse_session=False, ignore_cancel=False,
                 ignore_timeout=False):
        self.refuse_session = refuse_session
        self.ignore_cancel = ignore_cancel
        self.ignore_timeout = ignore_timeout
        self.calls = collections.Counter()  # RPC name -> calls received
        self.session_ends = []  # per forwarded ExecuteSession: "OK" or the status code's name
        self._channel = grpc.insecure_channel(f"127.0.0.1:{upstream_port}")
        self._stub = pb_grpc.SqlStub(self._channel)
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
        pb_grpc.add_SqlServicer_to_server(self, self._server)
        self.port = self._server.add_insecure_port("127.0.0.1:0")
        self._server.start()

    def stop(self):
        self._server.stop(grace=None)
        self._channel.close()

    # --- forwarding -----------------------------------------------------------------------
    @staticmethod
    def _metadata(context):
        return [(k, v) for k, v in context.invocation_metadata() if k == _SECRET]

    @staticmethod
    def _fail(context, rpc_error):
        context.set_trailing_metadata(rpc_error.trailing_metadata() or ())
        context.abort(rpc_error.code(), rpc_error.details() or "")

    def _unary(self, name, request, context):
        self.calls[name] += 1
        try:
            return getattr(self._stub, name)(request, metadata=self._metadata(context))
        except grpc.RpcError as e:
            self._fail(context, e)

    def _stream(self, name, request, context):
        self.calls[name] += 1
        upstream = getattr(self._stub, name)(request, metadata=self._metadata(context))
        context.add_callback(upstream.cancel)  # the client went away: so does the upstream call
        try:
            yield from upstream
        except grpc.RpcError as e:
            if name == "ExecuteSession":
                self.session_ends.append(e.code().name)
            self._fail(context, e)
        if name == "ExecuteSession":
            self.session_ends.append("OK")

    def OpenSession(self, request, context):
        return self._unary("OpenSession", request, context)

    def CloseSession(self, request, context):
        return self._unary("CloseSession", request, context)

    def Cancel(self, request, context):
        if self.ignore_cancel:
            self.calls["Cancel"] += 1
            return pb.CancelResponse(cancelled=False)
        return self._unary("Cancel", request, context)

    def Attach(self, request, context):
        return self._stream("Attach", request, context)

    def ExecuteStream(self, request, context):
        return self._stream("ExecuteStream", request, context)

    def ExecuteSession(self, request_iterator, context):
        if self.refuse_session:
            self.calls["ExecuteSession"] += 1
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "Method not implemented!")
        if self.ignore_timeout:
            request_iterator = map(self._without_timeout, request_iterator)
        return self._stream("ExecuteSession", request_iterator, context)

    @staticmethod
    def _without_timeout(request):
        request.timeout_ms = 0
        return request
