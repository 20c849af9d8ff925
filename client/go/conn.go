// conn: one session. Statements run one at a time (database/sql never uses a driver connection
// from two goroutines) on the session's ExecuteSession stream, or as ExecuteStream calls when
// the server lacks it; the Attach stream runs in its own goroutine
// and marks the connection lost when it ends, after which calls return driver.ErrBadConn so
// database/sql retries them on a fresh connection.
package meridian

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"math"
	"strconv"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"meridian.local/client/go/internal/pb"
)

// After a call ended on this side (context cancelled, deadline), the server may still be
// finishing it and refuse the next request with 55000 for a moment; that is retried this long.
const busyRetry = 5 * time.Second

type conn struct {
	cfg        *Config
	cc         *grpc.ClientConn
	stub       pb.SqlClient
	session    string
	lost       atomic.Bool
	closed     bool
	inTx       bool
	abandoned  bool // the last call ended by cancel or deadline
	queryID    uint64
	stopAttach context.CancelFunc

	// The ExecuteSession stream (proto/README.md), opened at the first request and again after
	// it broke; noSession once the server answered Unimplemented (ExecuteStream from then on).
	sess       grpc.BidiStreamingClient[pb.ExecuteRequest, pb.ResultChunk]
	sessCancel context.CancelFunc
	noSession  bool
}

var (
	_ driver.Conn               = (*conn)(nil)
	_ driver.ConnBeginTx        = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.Pinger             = (*conn)(nil)
	_ driver.SessionResetter    = (*conn)(nil)
	_ driver.Validator          = (*conn)(nil)
	_ driver.NamedValueChecker  = (*conn)(nil)
)

func (c *conn) attach(ctx context.Context) error {
	actx, cancel := context.WithCancel(context.Background())
	stream, err := c.stub.Attach(actx, &pb.AttachRequest{SessionId: c.session})
	if err != nil {
		cancel()
		return fromStatus(err)
	}
	first := make(chan error, 1)
	go func() {
		_, err := stream.Recv() // ATTACHED
		first <- err
		for err == nil {
			_, err = stream.Recv()
		}
		c.lost.Store(true) // the session is over: server gone, expired, or Close
	}()
	select {
	case err := <-first:
		if err != nil {
			cancel()
			return newError("08006", "could not attach session %s: %v", c.session, err)
		}
	case <-ctx.Done():
		cancel()
		return newError("08001", "could not attach session %s: %v", c.session, ctx.Err())
	}
	c.stopAttach = cancel
	return nil
}

// usable: ErrBadConn before anything was sent on a lost session, so database/sql retries.
func (c *conn) usable() error {
	if c.closed || c.lost.Load() {
		return driver.ErrBadConn
	}
	return nil
}

func (c *conn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	c.dropSession()
	if !c.lost.Load() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _ = c.stub.CloseSession(ctx, &pb.CloseSessionRequest{SessionId: c.session})
		cancel()
	}
	c.stopAttach()
	return c.cc.Close()
}

func (c *conn) IsValid() bool { return !c.closed && !c.lost.Load() }

func (c *conn) ResetSession(ctx context.Context) error { return c.usable() }

func (c *conn) Ping(ctx context.Context) error {
	if err := c.usable(); err != nil {
		return err
	}
	_, err := c.ExecContext(ctx, "SELECT 1", nil)
	return err
}

// start sends a request and reads its first chunk; the returned rows stream the rest.
func (c *conn) start(ctx context.Context, req *pb.ExecuteRequest) (*rows, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	if c.cfg.StatementTimeout > 0 {
		if _, has := ctx.Deadline(); !has {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, c.cfg.StatementTimeout)
			r, err := c.startWith(ctx, req)
			if err != nil {
				cancel()
				return nil, err
			}
			r.release = cancel
			return r, nil
		}
	}
	return c.startWith(ctx, req)
}

func (c *conn) startWith(ctx context.Context, req *pb.ExecuteRequest) (*rows, error) {
	deadline := time.Now().Add(busyRetry)
	for {
		c.queryID++
		req.SessionId = c.session
		req.QueryId = strconv.FormatUint(c.queryID, 10)
		if !c.noSession {
			r, ok, err := c.startOnSession(ctx, req)
			if ok {
				if err == nil {
					c.abandoned = false
					return r, nil
				}
				if SQLStateOf(err) == "55000" && c.abandoned && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
					continue
				}
				return nil, err
			}
		}
		callCtx, cancel := context.WithCancel(ctx)
		// Context cancellation → the server-side Cancel of this query (the call's own
		// cancellation cancels it too; Cancel makes the server's 57014 arrive at once).
		stop := context.AfterFunc(ctx, func() {
			cctx, ccancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer ccancel()
			_, _ = c.stub.Cancel(cctx, &pb.CancelRequest{SessionId: c.session, QueryId: req.QueryId})
		})
		stream, err := c.stub.ExecuteStream(callCtx, req)
		var first *pb.ResultChunk
		if err == nil {
			first, err = stream.Recv()
		}
		if err == nil || errors.Is(err, io.EOF) {
			c.abandoned = false
			r := &rows{c: c, stream: stream, cancel: cancel, stopCancel: stop}
			if err == nil {
				r.take(first)
			} else {
				r.finish()
			}
			return r, nil
		}
		stop()
		cancel()
		e := c.mapErr(err, ctx)
		if SQLStateOf(e) == "55000" && c.abandoned && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		return nil, e
	}
}

// startOnSession sends req on the session stream and reads its first chunk; ok is false when
// the server has no ExecuteSession (nothing ran: the caller makes an ExecuteStream call). The
// context's deadline travels as timeout_ms; its cancellation sends Cancel for the query, and
// if the request has not ended 5 s later the stream is dropped.
func (c *conn) startOnSession(ctx context.Context, req *pb.ExecuteRequest) (r *rows, ok bool, err error) {
	if c.sess == nil {
		sctx, cancel := context.WithCancel(context.Background())
		s, err := c.stub.ExecuteSession(sctx)
		if err != nil {
			cancel()
			return nil, true, c.mapErr(err, ctx)
		}
		c.sess, c.sessCancel = s, cancel
	}
	req.TimeoutMs = 0
	if dl, has := ctx.Deadline(); has {
		ms := time.Until(dl).Milliseconds()
		req.TimeoutMs = uint32(max(1, min(ms, math.MaxUint32)))
	}
	sc := &sessionChunks{c: c, s: c.sess, ctx: ctx}
	streamCancel, queryID := c.sessCancel, req.QueryId
	cancelQuery := func() {
		cctx, ccancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer ccancel()
		_, _ = c.stub.Cancel(cctx, &pb.CancelRequest{SessionId: c.session, QueryId: queryID})
	}
	stop := context.AfterFunc(ctx, func() {
		cancelQuery()
		time.AfterFunc(5*time.Second, func() {
			if !sc.ended.Load() {
				streamCancel() // a server that does not answer: the next request opens a new stream
			}
		})
	})
	_ = c.sess.Send(req) // a broken stream's status comes from Recv
	first, err := sc.Recv()
	if err != nil {
		stop()
		if status.Code(err) == codes.Unimplemented && !sc.received {
			c.noSession = true
			return nil, false, nil
		}
		return nil, true, c.mapErr(err, ctx)
	}
	r = &rows{c: c, stream: sc, cancel: func() { sc.ended.Store(true) }, abort: cancelQuery,
		stopCancel: stop}
	r.take(first)
	return r, true, nil
}

// dropSession ends the session stream (broken, or the connection closes).
func (c *conn) dropSession() {
	if c.sess != nil {
		c.sessCancel()
		c.sess, c.sessCancel = nil, nil
	}
}

// sessionChunks reads one request's chunks from the session stream: io.EOF after the chunk
// marked request_done; a failed request's error chunk becomes its *Error; a broken stream is
// dropped.
type sessionChunks struct {
	c        *conn
	s        grpc.BidiStreamingClient[pb.ExecuteRequest, pb.ResultChunk]
	ctx      context.Context
	done     bool        // the request's last chunk came, or the stream broke
	received bool        // any chunk came
	ended    atomic.Bool // done, or the rows were released (read by the cancel timer)
}

func (s *sessionChunks) Context() context.Context { return s.ctx }

func (s *sessionChunks) Recv() (*pb.ResultChunk, error) {
	if s.done {
		return nil, io.EOF
	}
	ch, err := s.s.Recv()
	if err != nil {
		s.done = true
		s.ended.Store(true)
		if s.c.sess == s.s {
			s.c.dropSession()
		}
		return nil, err
	}
	s.received = true
	if ch.RequestDone {
		s.done = true
		s.ended.Store(true)
		if ch.Error != nil {
			return nil, fromSQLError(ch.Error)
		}
	}
	return ch, nil
}

func (c *conn) mapErr(err error, ctx context.Context) error { //nolint:revive
	e := fromStatus(err)
	if e.SQLState == "57014" {
		c.abandoned = true
	}
	if len(e.SQLState) == 5 && e.SQLState[:2] == "08" || c.lost.Load() {
		c.lost.Store(true)
	}
	if e.SQLState == "57014" {
		if ctx.Err() != nil {
			return &ctxError{e: e, ctx: ctx.Err()}
		}
		// The server applies the call's deadline itself and may answer just before the
		// client's context notices it has expired.
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < 100*time.Millisecond {
			return &ctxError{e: e, ctx: context.DeadlineExceeded}
		}
	}
	return e
}

// ctxError is a 57014 caused by the caller's context: errors.Is(err, context.Canceled) (or
// DeadlineExceeded) holds, and errors.As finds the *Error.
type ctxError struct {
	e   *Error
	ctx error
}

func (x *ctxError) Error() string   { return x.e.Error() }
func (x *ctxError) Unwrap() []error { return []error{x.e, x.ctx} }

// run executes a statement to its end and returns its last summary.
func (c *conn) run(ctx context.Context, req *pb.ExecuteRequest) (driver.Result, error) {
	r, err := c.start(ctx, req)
	if err != nil {
		return nil, err
	}
	if err := r.drain(); err != nil {
		return nil, err
	}
	return driver.RowsAffected(r.affected), nil
}

func params(args []driver.NamedValue) ([]*pb.Value, []*pb.ColumnType, error) {
	values := make([]*pb.Value, len(args))
	types := make([]*pb.ColumnType, len(args))
	for i, a := range args {
		if a.Name != "" {
			return nil, nil, errors.New("meridian: named parameters are not supported; use $1, $2, ...")
		}
		v, oid, err := toValue(a.Value)
		if err != nil {
			return nil, nil, err
		}
		values[i], types[i] = v, &pb.ColumnType{PgOid: oid}
	}
	return values, types, nil
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	values, types, err := params(args)
	if err != nil {
		return nil, err
	}
	return c.run(ctx, &pb.ExecuteRequest{Sql: query, Params: values, ParamTypes: types})
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	values, types, err := params(args)
	if err != nil {
		return nil, err
	}
	return c.start(ctx, &pb.ExecuteRequest{Sql: query, Params: values, ParamTypes: types})
}

// --- transactions -------------------------------------------------------------------------

var isolationNames = map[int]string{
	0: "", 2: "READ COMMITTED", 4: "REPEATABLE READ", 5: "REPEATABLE READ", 6: "SERIALIZABLE",
}

func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx: sql.LevelDefault, ReadCommitted, RepeatableRead, Snapshot (= REPEATABLE READ,
// Meridian's snapshot isolation), Serializable (run as REPEATABLE READ by Meridian); ReadOnly.
func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	level, ok := isolationNames[int(opts.Isolation)]
	if !ok {
		return nil, newError("0A000", "isolation level %d is not supported", opts.Isolation)
	}
	sql := "BEGIN"
	if level != "" {
		sql += " ISOLATION LEVEL " + level
	}
	if opts.ReadOnly {
		sql += " READ ONLY"
	}
	if _, err := c.run(ctx, &pb.ExecuteRequest{Sql: sql}); err != nil {
		return nil, err
	}
	c.inTx = true
	return &tx{c: c}, nil
}

type tx struct{ c *conn }

func (t *tx) Commit() error   { return t.end("COMMIT") }
func (t *tx) Rollback() error { return t.end("ROLLBACK") }

func (t *tx) end(sql string) error {
	t.c.inTx = false
	if err := t.c.usable(); err != nil {
		return err
	}
	_, err := t.c.run(context.Background(), &pb.ExecuteRequest{Sql: sql})
	return err
}

// --- prepared statements ------------------------------------------------------------------

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// PrepareContext prepares on the server (the Prepare RPC): parsed, bound and planned once.
func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	resp, err := c.stub.Prepare(ctx, &pb.PrepareRequest{SessionId: c.session, Sql: query})
	if err != nil {
		return nil, c.mapErr(err, ctx)
	}
	return &stmt{c: c, id: resp.StatementId, numInput: len(resp.ParamTypes)}, nil
}

type stmt struct {
	c        *conn
	id       string
	numInput int
}

var (
	_ driver.StmtExecContext  = (*stmt)(nil)
	_ driver.StmtQueryContext = (*stmt)(nil)
)

func (s *stmt) NumInput() int { return s.numInput }

func (s *stmt) Close() error {
	if s.c.closed || s.c.lost.Load() {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := s.c.stub.Deallocate(ctx, &pb.DeallocateRequest{SessionId: s.c.session, StatementId: s.id})
	if err != nil {
		return s.c.mapErr(err, ctx)
	}
	return nil
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	values, _, err := params(args)
	if err != nil {
		return nil, err
	}
	return s.c.run(ctx, &pb.ExecuteRequest{StatementId: s.id, Params: values})
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	values, _, err := params(args)
	if err != nil {
		return nil, err
	}
	return s.c.start(ctx, &pb.ExecuteRequest{StatementId: s.id, Params: values})
}

func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, v := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return out
}
