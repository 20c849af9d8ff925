// Server errors: the SqlError that meridiand puts in the gRPC status details (proto/README.md,
// invariant 5), as *Error with PostgreSQL's fields; a bare gRPC status is mapped by its code as
// the C++ client does.
package meridian

import (
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"meridian.local/client/go/internal/pb"
)

// Error is an error reported by the server (or mapped from a gRPC failure).
type Error struct {
	SQLState, Message, Detail, Hint, Severity string
	Position                                  int // 1-based character in the statement; 0 when none
	Code                                      codes.Code
}

func (e *Error) Error() string {
	s := e.SQLState + ": " + e.Message
	if e.Detail != "" {
		s += " (DETAIL: " + e.Detail + ")"
	}
	return s
}

// Retryable: the transaction was rolled back by the server (40001 serialization failure,
// 40P01 deadlock) and may succeed when run again from its start.
func (e *Error) Retryable() bool { return len(e.SQLState) == 5 && e.SQLState[:2] == "40" }

// IsUniqueViolation: 23505.
func (e *Error) IsUniqueViolation() bool { return e.SQLState == "23505" }

// SQLStateOf returns the SQLSTATE of err when it is (or wraps) an *Error, else "".
func SQLStateOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.SQLState
	}
	return ""
}

func newError(state, format string, args ...any) *Error {
	return &Error{SQLState: state, Message: fmt.Sprintf(format, args...), Severity: "ERROR"}
}

func fromStatus(err error) *Error {
	var own *Error
	if errors.As(err, &own) { // already ours: an SQL error from the session stream
		return own
	}
	st, ok := status.FromError(err)
	if !ok {
		return newError("XX000", "%v", err)
	}
	for _, d := range st.Details() {
		if se, ok := d.(*pb.SqlError); ok {
			e := fromSQLError(se)
			e.Code = st.Code()
			return e
		}
	}
	e := newError("XX000", "%s", st.Message())
	switch st.Code() {
	case codes.Unavailable:
		e = newError("08006", "connection lost: %s", st.Message())
	case codes.DeadlineExceeded:
		e = newError("57014", "canceling statement due to statement timeout")
	case codes.Canceled:
		e = newError("57014", "canceling statement due to user request")
	case codes.Unimplemented:
		e = newError("0A000", "%s", st.Message())
	case codes.Unauthenticated:
		e = newError("28000", "%s", st.Message())
	}
	e.Code = st.Code()
	return e
}

// fromSQLError: the error of a request that failed on the ExecuteSession stream (its last
// chunk's SqlError); Code stays codes.OK, since no call failed.
func fromSQLError(se *pb.SqlError) *Error {
	return &Error{SQLState: se.Sqlstate, Message: se.Message, Detail: se.Detail, Hint: se.Hint,
		Severity: se.Severity, Position: int(se.Position)}
}
