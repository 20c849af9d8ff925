// rows streams a request's chunks (proto/README.md: metadata first, rows in bounded chunks,
// stats last, per statement): only one chunk is held at a time. Only the first statement's
// rows are returned (database/sql has no multiple result sets here); Close reads the rest,
// after cancelling the call when rows were left unread.
package meridian

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"reflect"
	"time"

	"meridian.local/client/go/internal/pb"
)

// chunkStream: an ExecuteStream call, or one request on the session stream (sessionChunks).
type chunkStream interface {
	Recv() (*pb.ResultChunk, error)
	Context() context.Context
}

type rows struct {
	c          *conn
	stream     chunkStream
	cancel     context.CancelFunc // releases the request when it ended
	abort      func()             // stops the statement early (nil: cancel)
	stopCancel func() bool
	release    context.CancelFunc // the statement timeout's context, if any

	columns  []*pb.ColumnMetadata
	pending  []*pb.Row // rows of the current chunk not yet returned
	oids     []uint32
	affected int64
	done     bool // the stream ended
	stmtDone bool // the first statement's stats came
	err      error
}

var (
	_ driver.RowsColumnTypeDatabaseTypeName = (*rows)(nil)
	_ driver.RowsColumnTypeNullable         = (*rows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*rows)(nil)
	_ driver.RowsColumnTypeLength           = (*rows)(nil)
	_ driver.RowsColumnTypeScanType         = (*rows)(nil)
)

func (r *rows) take(ch *pb.ResultChunk) {
	if ch.StatementIndex != 0 {
		if ch.Stats != nil {
			r.affected += int64(ch.Stats.Rows)
		}
		return
	}
	if ch.Metadata != nil && r.columns == nil {
		r.columns = ch.Metadata.Columns
		r.oids = make([]uint32, len(r.columns))
		for i, col := range r.columns {
			r.oids[i] = col.Type.GetPgOid()
		}
	}
	r.pending = append(r.pending, ch.Rows...)
	if ch.Stats != nil {
		r.stmtDone = true
		r.affected += int64(ch.Stats.Rows)
	}
}

// next reads one more chunk; false at the end of the stream or on an error (kept in r.err).
func (r *rows) next() bool {
	if r.done {
		return false
	}
	ch, err := r.stream.Recv()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			r.err = r.c.mapErr(err, r.stream.Context())
		}
		r.finish()
		return false
	}
	r.take(ch)
	return true
}

func (r *rows) finish() {
	if r.done {
		return
	}
	r.done = true
	r.stopCancel()
	r.cancel()
	if r.release != nil {
		r.release()
	}
}

// drain reads to the end; the first error.
func (r *rows) drain() error {
	for r.next() {
		r.pending = r.pending[:0]
	}
	return r.err
}

func (r *rows) Columns() []string {
	names := make([]string, len(r.columns))
	for i, col := range r.columns {
		names[i] = col.Name
	}
	return names
}

func (r *rows) Next(dest []driver.Value) error {
	for len(r.pending) == 0 {
		if r.stmtDone || !r.next() {
			if r.err != nil {
				return r.err
			}
			return io.EOF
		}
	}
	row := r.pending[0]
	r.pending = r.pending[1:]
	for i, v := range row.Values {
		val, err := fromValue(v, r.oids[i])
		if err != nil {
			return err
		}
		dest[i] = val
	}
	return nil
}

// Close ends the request: when the first statement's rows were not all read the call is
// cancelled (the server stops the statement), then the stream is read to its end so the
// session is free for the next request.
func (r *rows) Close() error {
	if !r.done && !r.stmtDone {
		if r.abort != nil {
			r.abort()
		} else {
			r.cancel()
		}
		r.c.abandoned = true
		for r.next() {
		}
		return nil
	}
	err := r.drain()
	if r.err != nil && SQLStateOf(err) != "" {
		return err
	}
	return nil
}

func (r *rows) ColumnTypeDatabaseTypeName(i int) string {
	if name, ok := typeNames[r.oids[i]]; ok {
		return name
	}
	return r.columns[i].Type.GetName()
}

func (r *rows) ColumnTypeNullable(i int) (nullable, ok bool) { return r.columns[i].Nullable, true }

// ColumnTypePrecisionScale: numeric(p,s) (the API's type_mod is (p << 16) | s).
func (r *rows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	if r.oids[i] != oidNumeric {
		return 0, 0, false
	}
	mod := r.columns[i].Type.GetTypeMod()
	if mod < 0 {
		return 0, 0, false
	}
	return int64(mod>>16) & 0xFFFF, int64(mod) & 0xFFFF, true
}

func (r *rows) ColumnTypeLength(i int) (length int64, ok bool) {
	switch r.oids[i] {
	case oidVarchar, oidBpchar:
		if mod := r.columns[i].Type.GetTypeMod(); mod >= 0 {
			return int64(mod), true
		}
	case oidText, oidBytea:
		return 1<<31 - 1, true
	}
	return 0, false
}

func (r *rows) ColumnTypeScanType(i int) reflect.Type {
	switch r.oids[i] {
	case oidBool:
		return reflect.TypeOf(false)
	case oidInt2, oidInt4, oidInt8:
		return reflect.TypeOf(int64(0))
	case oidFloat4, oidFloat8:
		return reflect.TypeOf(float64(0))
	case oidDate, oidTimestamp, oidTimestampTZ:
		return reflect.TypeOf(time.Time{})
	case oidBytea:
		return reflect.TypeOf([]byte(nil))
	}
	return reflect.TypeOf("")
}
