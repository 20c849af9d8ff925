// Package pgx_test runs Go's pgx v5 driver against a real meridiand: what a Go application does
// with it. The daemon's URL comes from MERIDIAN_PG_URL (set by ../pgx_test.py, which starts the
// daemon), e.g. postgres://meridian@127.0.0.1:PORT/meridian?sslmode=disable.
//
// Covered: pgx.Connect and pgxpool with concurrent goroutines; Exec; QueryRow/Query with
// parameters in the extended protocol (pgx's default QueryExecModeCacheStatement: named
// statements, Describe, BINARY results for int2/int4/int8/float4/float8/bool/text, NULLs into
// pointers and pgtype values), QueryExecModeCacheDescribe, QueryExecModeDescribeExec,
// QueryExecModeExec and QueryExecModeSimpleProtocol; transactions (Begin/Commit/Rollback, an error
// inside a transaction, a unique violation as *pgconn.PgError 23505 with the session going on);
// pgx.Batch; the Position of a 42601 syntax error; CopyFrom (binary COPY, which meridiand does not
// support: a clean 0A000 and a usable connection); cancelling a long query through the context;
// UUID and BYTEA parameters and results in every exec mode.
package pgx_test

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib"
)

var pgURL string

func TestMain(m *testing.M) {
	pgURL = os.Getenv("MERIDIAN_PG_URL")
	if pgURL == "" {
		fmt.Fprintln(os.Stderr, "MERIDIAN_PG_URL is not set (run ../pgx_test.py, which starts a meridiand)")
		os.Exit(2)
	}
	os.Exit(m.Run())
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func connect(t *testing.T) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(testContext(t), pgURL)
	if err != nil {
		t.Fatalf("pgx.Connect: %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func mustExec(t *testing.T, conn *pgx.Conn, sql string, args ...any) pgconn.CommandTag {
	t.Helper()
	tag, err := conn.Exec(testContext(t), sql, args...)
	if err != nil {
		t.Fatalf("Exec %q: %v", sql, err)
	}
	return tag
}

// pgError returns err as a *pgconn.PgError with the given SQLSTATE or fails the test.
func pgError(t *testing.T, err error, code string) *pgconn.PgError {
	t.Helper()
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		t.Fatalf("want a *pgconn.PgError %s, got %T: %v", code, err, err)
	}
	if pgErr.Code != code {
		t.Fatalf("want SQLSTATE %s, got %s: %s", code, pgErr.Code, pgErr.Message)
	}
	return pgErr
}

func assertUsable(t *testing.T, conn *pgx.Conn) {
	t.Helper()
	var n int
	if err := conn.QueryRow(testContext(t), "SELECT 41 + 1").Scan(&n); err != nil || n != 42 {
		t.Fatalf("connection not usable afterwards: n=%d err=%v", n, err)
	}
}

func TestConnectAndParameterStatus(t *testing.T) {
	conn := connect(t)
	pc := conn.PgConn()
	if v := pc.ParameterStatus("server_version"); v == "" || v[:3] != "15." {
		t.Errorf("server_version = %q", v)
	}
	for _, name := range []string{"server_encoding", "client_encoding"} {
		if v := pc.ParameterStatus(name); v != "UTF8" {
			t.Errorf("%s = %q", name, v)
		}
	}
	if v := pc.ParameterStatus("standard_conforming_strings"); v != "on" {
		t.Errorf("standard_conforming_strings = %q", v)
	}
	if pc.PID() == 0 {
		t.Error("BackendKeyData pid is 0")
	}
	if err := conn.Ping(testContext(t)); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	var pid uint32
	if err := conn.QueryRow(testContext(t), "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatalf("pg_backend_pid: %v", err)
	}
	if pid != pc.PID() {
		t.Errorf("pg_backend_pid() = %d, BackendKeyData pid = %d", pid, pc.PID())
	}
	// target_session_attrs (multi-host URLs): pgx checks each server with SHOW
	// transaction_read_only or SELECT pg_is_in_recovery(); Meridian is a writable primary.
	for _, attrs := range []string{"read-write", "primary", "prefer-standby", "any"} {
		c, err := pgx.Connect(testContext(t), pgURL+"&target_session_attrs="+attrs)
		if err != nil {
			t.Errorf("target_session_attrs=%s: %v", attrs, err)
			continue
		}
		c.Close(context.Background())
	}
	for _, attrs := range []string{"read-only", "standby"} {
		if c, err := pgx.Connect(testContext(t), pgURL+"&target_session_attrs="+attrs); err == nil {
			c.Close(context.Background())
			t.Errorf("target_session_attrs=%s accepted a writable primary", attrs)
		}
	}
}

func TestExecAndCommandTags(t *testing.T) {
	conn := connect(t)
	mustExec(t, conn, "CREATE TABLE exec_tags (id INTEGER PRIMARY KEY, name TEXT)")
	tag := mustExec(t, conn, "INSERT INTO exec_tags VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	if !tag.Insert() || tag.RowsAffected() != 3 || tag.String() != "INSERT 0 3" {
		t.Errorf("insert tag = %q", tag)
	}
	tag = mustExec(t, conn, "UPDATE exec_tags SET name = $1 WHERE id >= $2", "z", 2)
	if !tag.Update() || tag.RowsAffected() != 2 {
		t.Errorf("update tag = %q", tag)
	}
	tag = mustExec(t, conn, "DELETE FROM exec_tags WHERE id = $1", int64(1))
	if !tag.Delete() || tag.RowsAffected() != 1 {
		t.Errorf("delete tag = %q", tag)
	}
	tag = mustExec(t, conn, "SELECT * FROM exec_tags")
	if !tag.Select() || tag.RowsAffected() != 2 {
		t.Errorf("select tag = %q", tag)
	}
}

// typedRow is one row of the typed table; pointers take NULLs.
type typedRow struct {
	s *int16
	i *int32
	b *int64
	r *float32
	d *float64
	f *bool
	t *string
	v *string
}

// setupTyped creates a table of every supported type, with a row of minimums, one of maximums
// and one of NULLs, and returns its name (one table per test).
func setupTyped(t *testing.T, conn *pgx.Conn) string {
	name := "typed_" + strings.ToLower(t.Name())
	mustExec(t, conn, `CREATE TABLE `+name+` (k INTEGER PRIMARY KEY, s SMALLINT, i INTEGER, b BIGINT,
		r REAL, d DOUBLE PRECISION, f BOOLEAN, t TEXT, v VARCHAR(20))`)
	mustExec(t, conn, `INSERT INTO `+name+` VALUES
		(1, -32768, -2147483648, -9223372036854775808, 1.5, -0.25, true, 'héllo', 'v1'),
		(2, 32767, 2147483647, 9223372036854775807, -2.5, 1e300, false, '', ''),
		(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`)
	return name
}

func checkTypedRows(t *testing.T, mode pgx.QueryExecMode, conn *pgx.Conn, table string) {
	t.Helper()
	rows, err := conn.Query(testContext(t), "SELECT s, i, b, r, d, f, t, v FROM "+table+" WHERE k >= $1 ORDER BY k", mode, 1)
	if err != nil {
		t.Fatalf("%v: Query: %v", mode, err)
	}
	var got []typedRow
	for rows.Next() {
		var r typedRow
		if err := rows.Scan(&r.s, &r.i, &r.b, &r.r, &r.d, &r.f, &r.t, &r.v); err != nil {
			t.Fatalf("%v: Scan: %v", mode, err)
		}
		got = append(got, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%v: rows: %v", mode, err)
	}
	if len(got) != 3 {
		t.Fatalf("%v: %d rows", mode, len(got))
	}
	r := got[0]
	if r.s == nil || *r.s != -32768 || r.i == nil || *r.i != -2147483648 || r.b == nil ||
		*r.b != -9223372036854775808 || r.r == nil || *r.r != 1.5 || r.d == nil || *r.d != -0.25 ||
		r.f == nil || !*r.f || r.t == nil || *r.t != "héllo" || r.v == nil || *r.v != "v1" {
		t.Errorf("%v: row 1 wrong: %+v", mode, r)
	}
	r = got[1]
	if r.s == nil || *r.s != 32767 || r.i == nil || *r.i != 2147483647 || r.b == nil ||
		*r.b != 9223372036854775807 || r.r == nil || *r.r != -2.5 || r.d == nil || *r.d != 1e300 ||
		r.f == nil || *r.f || r.t == nil || *r.t != "" || r.v == nil || *r.v != "" {
		t.Errorf("%v: row 2 wrong: %+v", mode, r)
	}
	r = got[2]
	if r.s != nil || r.i != nil || r.b != nil || r.r != nil || r.d != nil || r.f != nil || r.t != nil || r.v != nil {
		t.Errorf("%v: row 3 should be all NULL: %+v", mode, r)
	}
}

func TestTypesAllModes(t *testing.T) {
	conn := connect(t)
	table := setupTyped(t, conn)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe,
		pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		checkTypedRows(t, mode, conn, table)
	}
}

// The default mode prepares and describes, then asks for binary results for the types it knows.
func TestBinaryResultFormats(t *testing.T) {
	conn := connect(t)
	table := setupTyped(t, conn)
	rows, err := conn.Query(testContext(t), "SELECT s, i, b, r, d, f, t, v FROM "+table+" WHERE k = $1", 1)
	if err != nil {
		t.Fatalf("Query: %v", err)
	}
	defer rows.Close()
	// Meridian stores SMALLINT as integer and REAL as double precision (PostgreSQL: int2 21 and
	// float4 700); pgx scans either into int16/float32. pgx asks for binary results for every
	// type it knows except text and varchar, which it reads as text (TestRawBinaryFormats sends
	// those in binary too).
	wantOIDs := [][]uint32{{pgtype.Int2OID, pgtype.Int4OID}, {pgtype.Int4OID}, {pgtype.Int8OID},
		{pgtype.Float4OID, pgtype.Float8OID}, {pgtype.Float8OID}, {pgtype.BoolOID}, {pgtype.TextOID}, {pgtype.VarcharOID}}
	fds := rows.FieldDescriptions()
	if len(fds) != len(wantOIDs) {
		t.Fatalf("%d fields", len(fds))
	}
	for i, fd := range fds {
		if !slices.Contains(wantOIDs[i], fd.DataTypeOID) {
			t.Errorf("column %s: OID %d, want one of %v", fd.Name, fd.DataTypeOID, wantOIDs[i])
		}
		wantFormat := int16(pgx.BinaryFormatCode)
		if fd.DataTypeOID == pgtype.TextOID || fd.DataTypeOID == pgtype.VarcharOID {
			wantFormat = pgx.TextFormatCode
		}
		if fd.Format != wantFormat {
			t.Errorf("column %s: format %d, want %d", fd.Name, fd.Format, wantFormat)
		}
	}
	if !rows.Next() {
		t.Fatalf("no row: %v", rows.Err())
	}
	raw := rows.RawValues()
	for i, v := range raw {
		want := len("héllo")
		switch fds[i].DataTypeOID {
		case pgtype.Int2OID:
			want = 2
		case pgtype.Int4OID, pgtype.Float4OID:
			want = 4
		case pgtype.Int8OID, pgtype.Float8OID:
			want = 8
		case pgtype.BoolOID:
			want = 1
		case pgtype.VarcharOID:
			want = 2
		}
		if len(v) != want {
			t.Errorf("column %s: %d bytes, want %d", fds[i].Name, len(v), want)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		t.Fatalf("rows: %v", err)
	}
}

func TestPgtypeNulls(t *testing.T) {
	conn := connect(t)
	table := setupTyped(t, conn)
	for _, k := range []int{1, 3} {
		var s pgtype.Int2
		var i pgtype.Int4
		var b pgtype.Int8
		var r pgtype.Float4
		var d pgtype.Float8
		var f pgtype.Bool
		var tx pgtype.Text
		err := conn.QueryRow(testContext(t), "SELECT s, i, b, r, d, f, t FROM "+table+" WHERE k = $1", k).
			Scan(&s, &i, &b, &r, &d, &f, &tx)
		if err != nil {
			t.Fatalf("k=%d: %v", k, err)
		}
		valid := k == 1
		for name, v := range map[string]bool{"s": s.Valid, "i": i.Valid, "b": b.Valid, "r": r.Valid, "d": d.Valid,
			"f": f.Valid, "t": tx.Valid} {
			if v != valid {
				t.Errorf("k=%d: %s.Valid = %v", k, name, v)
			}
		}
		if valid && (s.Int16 != -32768 || i.Int32 != -2147483648 || r.Float32 != 1.5 || d.Float64 != -0.25 ||
			!f.Bool || tx.String != "héllo") {
			t.Errorf("k=%d: values %v %v %v %v %v %v", k, s, i, r, d, f, tx)
		}
	}
	// Scanning a NULL into a plain int is an error on the client side, not a broken connection.
	var n int32
	if err := conn.QueryRow(testContext(t), "SELECT i FROM "+table+" WHERE k = 3").Scan(&n); err == nil {
		t.Error("scanning NULL into int32 should fail")
	}
	assertUsable(t, conn)
}

// Parameters of every supported type, sent by pgx in binary (the default mode) or text.
func TestParameters(t *testing.T) {
	conn := connect(t)
	mustExec(t, conn, `CREATE TABLE params (k INTEGER PRIMARY KEY, s SMALLINT, b BIGINT, r REAL,
		d DOUBLE PRECISION, f BOOLEAN, t TEXT, v VARCHAR(10))`)
	modes := []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol}
	for idx, mode := range modes {
		k := int32(idx + 1)
		str := "it's \"q\" \\ ü"
		_, err := conn.Exec(testContext(t), "INSERT INTO params VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", mode,
			k, int16(-7), int64(1)<<40, float32(0.5), 3.25, true, str, "vc")
		if err != nil {
			t.Fatalf("%v: insert: %v", mode, err)
		}
		var s int16
		var b int64
		var r float32
		var d float64
		var f bool
		var tx, v string
		err = conn.QueryRow(testContext(t), "SELECT s, b, r, d, f, t, v FROM params WHERE k = $1 AND t = $2", mode,
			k, str).Scan(&s, &b, &r, &d, &f, &tx, &v)
		if err != nil {
			t.Fatalf("%v: select: %v", mode, err)
		}
		if s != -7 || b != 1<<40 || r != 0.5 || d != 3.25 || !f || tx != str || v != "vc" {
			t.Errorf("%v: got %v %v %v %v %v %q %q", mode, s, b, r, d, f, tx, v)
		}
		// NULL parameters: a nil pointer and an invalid pgtype value.
		var nilText *string
		_, err = conn.Exec(testContext(t), "INSERT INTO params (k, t, b) VALUES ($1, $2, $3)", mode,
			k+10, nilText, pgtype.Int8{})
		if err != nil {
			t.Fatalf("%v: insert NULLs: %v", mode, err)
		}
		var isNull bool
		err = conn.QueryRow(testContext(t), "SELECT t IS NULL AND b IS NULL FROM params WHERE k = $1", mode, k+10).
			Scan(&isNull)
		if err != nil || !isNull {
			t.Errorf("%v: NULL parameters: %v %v", mode, isNull, err)
		}
	}
	// Parameters in expressions whose type the server infers.
	var sum int64
	var cat string
	err := conn.QueryRow(testContext(t), "SELECT $1::bigint + $2, $3 || 'x'", int64(5), 6, "ab").Scan(&sum, &cat)
	if err != nil || sum != 11 || cat != "abx" {
		t.Errorf("inferred parameters: %d %q %v", sum, cat, err)
	}
}

func TestQueryManyRows(t *testing.T) {
	conn := connect(t)
	mustExec(t, conn, "CREATE TABLE many (n INTEGER)")
	mustExec(t, conn, "INSERT INTO many VALUES (1)")
	for shift := 0; shift < 12; shift++ { // 4096 rows
		mustExec(t, conn, fmt.Sprintf("INSERT INTO many SELECT n + %d FROM many", 1<<shift))
	}
	nums, err := pgx.CollectRows(mustQuery(t, conn, "SELECT n FROM many WHERE n > $1 ORDER BY n", 0),
		pgx.RowTo[int32])
	if err != nil {
		t.Fatalf("CollectRows: %v", err)
	}
	if len(nums) != 4096 || nums[0] != 1 || nums[4095] != 4096 {
		t.Errorf("%d rows, first %v", len(nums), nums[:1])
	}
	// Stopping early: the rest of the rows are dropped and the connection goes on.
	rows := mustQuery(t, conn, "SELECT n FROM many")
	rows.Next()
	rows.Close()
	if rows.Err() != nil {
		t.Errorf("early close: %v", rows.Err())
	}
	assertUsable(t, conn)
}

func mustQuery(t *testing.T, conn *pgx.Conn, sql string, args ...any) pgx.Rows {
	t.Helper()
	rows, err := conn.Query(testContext(t), sql, args...)
	if err != nil {
		t.Fatalf("Query %q: %v", sql, err)
	}
	return rows
}

func TestPoolConcurrentGoroutines(t *testing.T) {
	ctx := testContext(t)
	cfg, err := pgxpool.ParseConfig(pgURL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("pgxpool: %v", err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, "CREATE TABLE pooled (g INTEGER, i INTEGER, PRIMARY KEY (g, i))"); err != nil {
		t.Fatal(err)
	}
	const goroutines, perG = 8, 50
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < perG; i++ {
				if _, err := pool.Exec(ctx, "INSERT INTO pooled VALUES ($1, $2)", g, i); err != nil {
					errs <- fmt.Errorf("goroutine %d insert %d: %w", g, i, err)
					return
				}
				var n int
				if err := pool.QueryRow(ctx, "SELECT count(*) FROM pooled WHERE g = $1", g).Scan(&n); err != nil {
					errs <- fmt.Errorf("goroutine %d count: %w", g, err)
					return
				}
				if n != i+1 {
					errs <- fmt.Errorf("goroutine %d: count %d after %d inserts", g, n, i+1)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var total int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM pooled").Scan(&total); err != nil || total != goroutines*perG {
		t.Errorf("total %d, %v", total, err)
	}
	if st := pool.Stat(); st.TotalConns() < 2 {
		t.Errorf("pool used only %d connections", st.TotalConns())
	}
}

func TestTransactions(t *testing.T) {
	conn := connect(t)
	ctx := testContext(t)
	mustExec(t, conn, "CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance BIGINT)")
	mustExec(t, conn, "INSERT INTO accounts VALUES (1, 100), (2, 0)")

	// Commit.
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatalf("Begin: %v", err)
	}
	if st := conn.PgConn().TxStatus(); st != 'T' {
		t.Errorf("TxStatus in a transaction = %c", st)
	}
	if _, err := tx.Exec(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", 30, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", 30, 2); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatalf("Commit: %v", err)
	}
	if st := conn.PgConn().TxStatus(); st != 'I' {
		t.Errorf("TxStatus after commit = %c", st)
	}
	checkBalances(t, conn, 70, 30)

	// Rollback.
	tx, err = conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "UPDATE accounts SET balance = 0"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatalf("Rollback: %v", err)
	}
	checkBalances(t, conn, 70, 30)

	// An error inside the transaction: the transaction is aborted (25P02 for the next
	// statement), Rollback ends it, and nothing of it stays.
	tx, err = conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "UPDATE accounts SET balance = 1 WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	_, err = tx.Exec(ctx, "INSERT INTO accounts VALUES ($1, $2)", 2, 5)
	pgErr := pgError(t, err, "23505")
	if pgErr.Severity != "ERROR" {
		t.Errorf("severity %q", pgErr.Severity)
	}
	if st := conn.PgConn().TxStatus(); st != 'E' {
		t.Errorf("TxStatus after an error in a transaction = %c", st)
	}
	_, err = tx.Exec(ctx, "SELECT 1")
	pgError(t, err, "25P02")
	if err := tx.Rollback(ctx); err != nil {
		t.Fatalf("Rollback after error: %v", err)
	}
	checkBalances(t, conn, 70, 30)

	// Commit of a failed transaction reports pgx.ErrTxCommitRollback.
	tx, err = conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tx.Exec(ctx, "SELECT 1/0")
	pgError(t, err, "22012")
	if err := tx.Commit(ctx); !errors.Is(err, pgx.ErrTxCommitRollback) {
		t.Errorf("Commit of a failed transaction: %v", err)
	}

	// pgx.BeginFunc: an error from the function rolls back.
	sentinel := errors.New("stop")
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE accounts SET balance = 0"); err != nil {
			return err
		}
		return sentinel
	})
	if !errors.Is(err, sentinel) {
		t.Errorf("BeginFunc: %v", err)
	}
	checkBalances(t, conn, 70, 30)

	// Isolation level options are sent as BEGIN ISOLATION LEVEL ...
	tx, err = conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		t.Fatalf("BeginTx repeatable read: %v", err)
	}
	var iso string
	if err := tx.QueryRow(ctx, "SHOW transaction_isolation").Scan(&iso); err != nil || iso != "repeatable read" {
		t.Errorf("transaction_isolation = %q, %v", iso, err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

func checkBalances(t *testing.T, conn *pgx.Conn, want1, want2 int64) {
	t.Helper()
	var b1, b2 int64
	err := conn.QueryRow(testContext(t),
		"SELECT (SELECT balance FROM accounts WHERE id = 1), (SELECT balance FROM accounts WHERE id = 2)").
		Scan(&b1, &b2)
	if err != nil {
		t.Fatalf("balances: %v", err)
	}
	if b1 != want1 || b2 != want2 {
		t.Errorf("balances %d, %d; want %d, %d", b1, b2, want1, want2)
	}
}

func TestUniqueViolationOutsideTransaction(t *testing.T) {
	conn := connect(t)
	mustExec(t, conn, "CREATE TABLE uniq (id INTEGER PRIMARY KEY, t TEXT)")
	mustExec(t, conn, "INSERT INTO uniq VALUES ($1, $2)", 1, "a")
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec,
		pgx.QueryExecModeSimpleProtocol} {
		_, err := conn.Exec(testContext(t), "INSERT INTO uniq VALUES ($1, $2)", mode, 1, "b")
		pgErr := pgError(t, err, "23505")
		if pgErr.Message == "" {
			t.Errorf("%v: empty message", mode)
		}
		if st := conn.PgConn().TxStatus(); st != 'I' {
			t.Errorf("%v: TxStatus %c", mode, st)
		}
		assertUsable(t, conn)
	}
	var n int
	if err := conn.QueryRow(testContext(t), "SELECT count(*) FROM uniq").Scan(&n); err != nil || n != 1 {
		t.Errorf("count %d %v", n, err)
	}
}

func TestErrorsAndPositions(t *testing.T) {
	conn := connect(t)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec,
		pgx.QueryExecModeSimpleProtocol} {
		_, err := conn.Exec(testContext(t), "SELECT 1 FROM WHERE", mode)
		pgErr := pgError(t, err, "42601")
		// PostgreSQL: 'syntax error at or near "WHERE"', position 15 (1-based, in characters).
		if pgErr.Position != 15 {
			t.Errorf("%v: syntax error position %d, want 15 (%s)", mode, pgErr.Position, pgErr.Message)
		}
		assertUsable(t, conn)

		_, err = conn.Exec(testContext(t), "SELECT * FROM no_such_table", mode)
		pgErr = pgError(t, err, "42P01")
		if pgErr.Position != 15 {
			t.Errorf("%v: undefined table position %d, want 15", mode, pgErr.Position)
		}
		assertUsable(t, conn)
	}
	// A parameter of the wrong type as text: 22P02, like a CAST.
	_, err := conn.Exec(testContext(t), "SELECT $1::integer", pgx.QueryExecModeExec, "abc")
	pgError(t, err, "22P02")
	// Division by zero at execution time, after the statement was prepared and described.
	_, err = conn.Exec(testContext(t), "SELECT 10 / $1::integer", 0)
	pgError(t, err, "22012")
	assertUsable(t, conn)
}

// connectMode connects with mode as the connection's DefaultQueryExecMode (batches use it).
func connectMode(t *testing.T, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(pgURL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = mode
	conn, err := pgx.ConnectConfig(testContext(t), cfg)
	if err != nil {
		t.Fatalf("pgx.ConnectConfig: %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func TestBatch(t *testing.T) {
	ctx := testContext(t)
	mustExec(t, connect(t), "CREATE TABLE batched (id INTEGER PRIMARY KEY, t TEXT)")
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe,
		pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		conn := connectMode(t, mode)
		mustExec(t, conn, "DELETE FROM batched")
		batch := &pgx.Batch{}
		for i := 1; i <= 5; i++ {
			batch.Queue("INSERT INTO batched VALUES ($1, $2)", i, fmt.Sprintf("row %d", i))
		}
		var count int
		batch.Queue("SELECT count(*) FROM batched").QueryRow(func(row pgx.Row) error { return row.Scan(&count) })
		var texts []string
		batch.Queue("SELECT t FROM batched WHERE id > $1 ORDER BY id", 3).Query(func(rows pgx.Rows) error {
			var err error
			texts, err = pgx.CollectRows(rows, pgx.RowTo[string])
			return err
		})
		br := conn.SendBatch(ctx, batch)
		if err := br.Close(); err != nil {
			t.Fatalf("%v: batch: %v", mode, err)
		}
		if count != 5 || len(texts) != 2 || texts[0] != "row 4" || texts[1] != "row 5" {
			t.Errorf("%v: batch results %d %v", mode, count, texts)
		}

		// A failing statement in the middle: its error, and the connection goes on.
		batch = &pgx.Batch{}
		batch.Queue("INSERT INTO batched VALUES ($1, $2)", 6, "six")
		batch.Queue("INSERT INTO batched VALUES ($1, $2)", 1, "dup")
		batch.Queue("SELECT 1")
		br = conn.SendBatch(ctx, batch)
		if _, err := br.Exec(); err != nil {
			t.Errorf("%v: first batch statement: %v", mode, err)
		}
		_, err := br.Exec()
		pgError(t, err, "23505")
		br.Close()
		assertUsable(t, conn)
	}
}

// pgx's CopyFrom sends "COPY t (cols) FROM STDIN BINARY". meridiand supports text and CSV COPY
// only, so it must refuse it cleanly (0A000) and the connection must go on. If binary COPY is
// implemented one day, the rows must arrive.
func TestCopyFrom(t *testing.T) {
	conn := connect(t)
	ctx := testContext(t)
	mustExec(t, conn, "CREATE TABLE copied (id INTEGER, name TEXT, score DOUBLE PRECISION)")
	src := pgx.CopyFromRows([][]any{{int32(1), "a", 1.5}, {int32(2), nil, 2.5}, {int32(3), "c", nil}})
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"copied"}, []string{"id", "name", "score"}, src)
	if err != nil {
		pgErr := pgError(t, err, "0A000")
		t.Logf("CopyFrom refused as expected: %s", pgErr.Message)
		assertUsable(t, conn)
		var count int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM copied").Scan(&count); err != nil || count != 0 {
			t.Errorf("rows after a refused COPY: %d %v", count, err)
		}
		return
	}
	if n != 3 {
		t.Errorf("CopyFrom copied %d rows", n)
	}
	var count int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM copied WHERE name IS NULL OR score IS NULL").Scan(&count); err != nil || count != 2 {
		t.Errorf("NULL rows after CopyFrom: %d %v", count, err)
	}
}

// A COPY FROM STDIN in text format through the lower-level pgconn API works.
func TestPgconnCopyFromText(t *testing.T) {
	conn := connect(t)
	ctx := testContext(t)
	mustExec(t, conn, "CREATE TABLE copied_text (id INTEGER, name TEXT)")
	r := stringsReader("1\tone\n2\t\\N\n")
	tag, err := conn.PgConn().CopyFrom(ctx, r, "COPY copied_text FROM STDIN")
	if err != nil || tag.RowsAffected() != 2 {
		t.Fatalf("pgconn CopyFrom: %q %v", tag, err)
	}
	var count int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM copied_text WHERE name IS NULL").Scan(&count); err != nil || count != 1 {
		t.Errorf("NULL rows: %d %v", count, err)
	}
}

type sliceReader struct{ b []byte }

func (r *sliceReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func stringsReader(s string) *sliceReader { return &sliceReader{b: []byte(s)} }

// longQuery counts a cross join big enough to run for minutes.
const longQuery = "SELECT count(*) FROM big a, big b, big c"

func setupBig(t *testing.T, conn *pgx.Conn) {
	mustExec(t, conn, "CREATE TABLE IF NOT EXISTS big (n INTEGER)")
	var n int
	if err := conn.QueryRow(testContext(t), "SELECT count(*) FROM big").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		mustExec(t, conn, "INSERT INTO big VALUES (1)")
		for shift := 0; shift < 11; shift++ { // 2048 rows: the cross join has 8.6e9 rows
			mustExec(t, conn, fmt.Sprintf("INSERT INTO big SELECT n + %d FROM big", 1<<shift))
		}
	}
}

// With pgx's CancelRequestContextWatcherHandler a cancelled context sends a CancelRequest: the
// server stops the statement with 57014 and the connection stays usable.
func TestContextCancelSendsCancelRequest(t *testing.T) {
	cfg, err := pgx.ParseConfig(pgURL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: pc, CancelRequestDelay: 0, DeadlineDelay: 20 * time.Second}
	}
	conn, err := pgx.ConnectConfig(testContext(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	setupBig(t, conn)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		start := time.Now()
		var n int64
		err = conn.QueryRow(ctx, longQuery, mode).Scan(&n)
		cancel()
		elapsed := time.Since(start)
		if err == nil {
			t.Fatalf("%v: the long query finished (%d rows) instead of being cancelled", mode, n)
		}
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "57014" {
			t.Errorf("%v: want 57014 query_canceled, got %v (after %v)", mode, err, elapsed)
		}
		if conn.IsClosed() {
			t.Fatalf("%v: connection closed after a CancelRequest", mode)
		}
		assertUsable(t, conn)
	}
}

// pgx's default (DeadlineContextWatcherHandler): a cancelled context interrupts the read by a
// deadline; the error is context.DeadlineExceeded and pgx closes the connection (sending a
// CancelRequest as it does, which the server log shows); a new connection works.
func TestContextCancelDefaultClosesConnection(t *testing.T) {
	conn := connect(t)
	setupBig(t, conn)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var n int64
	err := conn.QueryRow(ctx, longQuery).Scan(&n)
	if err == nil {
		t.Fatalf("the long query finished (%d) instead of being cancelled", n)
	}
	if !errors.Is(err, context.DeadlineExceeded) && !pgconn.Timeout(err) {
		t.Errorf("want context deadline exceeded, got %v", err)
	}
	if !conn.IsClosed() {
		assertUsable(t, conn)
	}
	other := connect(t)
	assertUsable(t, other)
}

// The protocol level under pgx (pgconn.ExecParams): parameters declared as int2, int4, int8,
// float4, float8, bool and text, all sent in binary, and every result column asked for in binary.
func TestRawBinaryFormats(t *testing.T) {
	conn := connect(t)
	be := binary.BigEndian
	params := [][]byte{
		be.AppendUint16(nil, uint16(0xfffe)),            // int2 -2
		be.AppendUint32(nil, uint32(0x80000000)),        // int4 min
		be.AppendUint64(nil, uint64(1)<<62),             // int8
		be.AppendUint32(nil, math.Float32bits(-1.25)),   // float4
		be.AppendUint64(nil, math.Float64bits(math.Pi)), // float8
		{1},             // bool true
		[]byte("bin ü"), // text
		nil,             // NULL int4
	}
	oids := []uint32{pgtype.Int2OID, pgtype.Int4OID, pgtype.Int8OID, pgtype.Float4OID, pgtype.Float8OID,
		pgtype.BoolOID, pgtype.TextOID, pgtype.Int4OID}
	formats := []int16{1, 1, 1, 1, 1, 1, 1, 1}
	res := conn.PgConn().ExecParams(testContext(t), "SELECT $1, $2, $3, $4, $5, $6, $7, $8", params, oids, formats,
		formats).Read()
	if res.Err != nil {
		t.Fatalf("ExecParams: %v", res.Err)
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 8 {
		t.Fatalf("rows %v", res.Rows)
	}
	row := res.Rows[0]
	for i, fd := range res.FieldDescriptions {
		if fd.Format != 1 {
			t.Errorf("column %d: format %d", i, fd.Format)
		}
	}
	asInt := func(b []byte) int64 {
		switch len(b) {
		case 2:
			return int64(int16(be.Uint16(b)))
		case 4:
			return int64(int32(be.Uint32(b)))
		case 8:
			return int64(be.Uint64(b))
		}
		t.Errorf("integer of %d bytes", len(b))
		return 0
	}
	asFloat := func(b []byte) float64 {
		switch len(b) {
		case 4:
			return float64(math.Float32frombits(be.Uint32(b)))
		case 8:
			return math.Float64frombits(be.Uint64(b))
		}
		t.Errorf("float of %d bytes", len(b))
		return 0
	}
	if v := asInt(row[0]); v != -2 {
		t.Errorf("int2: %d", v)
	}
	if v := asInt(row[1]); v != math.MinInt32 || len(row[1]) != 4 {
		t.Errorf("int4: %d (%d bytes)", v, len(row[1]))
	}
	if v := asInt(row[2]); v != 1<<62 || len(row[2]) != 8 {
		t.Errorf("int8: %d", v)
	}
	if v := asFloat(row[3]); v != -1.25 {
		t.Errorf("float4: %v", v)
	}
	if v := asFloat(row[4]); v != math.Pi || len(row[4]) != 8 {
		t.Errorf("float8: %v", v)
	}
	if len(row[5]) != 1 || row[5][0] != 1 {
		t.Errorf("bool: %v", row[5])
	}
	if string(row[6]) != "bin ü" {
		t.Errorf("text: %q", row[6])
	}
	if row[7] != nil {
		t.Errorf("NULL: %v", row[7])
	}
	// A malformed binary value: 22P03, and the connection goes on.
	res = conn.PgConn().ExecParams(testContext(t), "SELECT $1", [][]byte{{1, 2, 3}}, []uint32{pgtype.Int4OID},
		[]int16{1}, nil).Read()
	pgError(t, res.Err, "22P03")
	assertUsable(t, conn)
}

// database/sql through pgx's stdlib driver, as most Go applications use it.
func TestDatabaseSQL(t *testing.T) {
	ctx := testContext(t)
	db, err := sql.Open("pgx", pgURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(3)
	if err := db.PingContext(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if _, err := db.ExecContext(ctx, "CREATE TABLE std (id BIGINT PRIMARY KEY, name VARCHAR(20), score DOUBLE PRECISION)"); err != nil {
		t.Fatal(err)
	}
	res, err := db.ExecContext(ctx, "INSERT INTO std VALUES ($1, $2, $3), ($4, $5, $6)", 1, "one", 0.5, 2, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 2 {
		t.Errorf("RowsAffected %d", n)
	}
	stmt, err := db.PrepareContext(ctx, "SELECT name, score FROM std WHERE id = $1")
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	defer stmt.Close()
	var name sql.NullString
	var score sql.NullFloat64
	if err := stmt.QueryRowContext(ctx, 1).Scan(&name, &score); err != nil || name.String != "one" || score.Float64 != 0.5 {
		t.Errorf("row 1: %v %v %v", name, score, err)
	}
	if err := stmt.QueryRowContext(ctx, 2).Scan(&name, &score); err != nil || name.Valid || score.Valid {
		t.Errorf("row 2: %v %v %v", name, score, err)
	}
	if err := stmt.QueryRowContext(ctx, 3).Scan(&name, &score); !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("missing row: %v", err)
	}
	rows, err := db.QueryContext(ctx, "SELECT id, name, score FROM std ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	cts, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	var typeNames []string
	for _, ct := range cts {
		typeNames = append(typeNames, ct.DatabaseTypeName())
	}
	if !slices.Equal(typeNames, []string{"INT8", "VARCHAR", "FLOAT8"}) {
		t.Errorf("column types %v", typeNames)
	}
	rows.Close()

	// A transaction rolled back, one committed, one failing with a unique violation.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM std"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	tx, err = db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		t.Fatalf("BeginTx serializable: %v", err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO std (id) VALUES ($1)", 3); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx, err = db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tx.ExecContext(ctx, "INSERT INTO std (id) VALUES ($1)", 1)
	pgError(t, err, "23505")
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	var count int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM std").Scan(&count); err != nil || count != 3 {
		t.Errorf("count %d %v", count, err)
	}
}

// Client-side conveniences over the server's answers: named arguments and struct scanning.
func TestNamedArgsAndStructs(t *testing.T) {
	conn := connect(t)
	mustExec(t, conn, "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, age INTEGER)")
	for i, n := range []string{"ann", "bob", "cid"} {
		mustExec(t, conn, "INSERT INTO people VALUES (@id, @name, @age)",
			pgx.NamedArgs{"id": i + 1, "name": n, "age": 20 + i})
	}
	type person struct {
		ID   int32
		Name string
		Age  *int32
	}
	rows := mustQuery(t, conn, "SELECT id, name, age FROM people WHERE age >= @min ORDER BY id",
		pgx.NamedArgs{"min": 21})
	people, err := pgx.CollectRows(rows, pgx.RowToStructByName[person])
	if err != nil {
		t.Fatalf("CollectRows: %v", err)
	}
	if len(people) != 2 || people[0].Name != "bob" || *people[1].Age != 22 {
		t.Errorf("people %+v", people)
	}
}

// pgx caches prepared statements and their descriptions (QueryExecModeCacheStatement). After a
// DDL changes the types a cached statement returns, the server must refuse it with PostgreSQL's
// 0A000 "cached plan must not change result type" rather than send rows pgx would decode by
// the old description (here 4 text bytes read as a binary int4); pgx then drops the cache
// entry and the retry prepares again.
func TestStatementCacheAfterSchemaChange(t *testing.T) {
	conn := connect(t)
	ctx := testContext(t)
	mustExec(t, conn, "CREATE TABLE reshaped (k INTEGER, v INTEGER)")
	mustExec(t, conn, "INSERT INTO reshaped VALUES (1, 10)")
	var v int32
	if err := conn.QueryRow(ctx, "SELECT v FROM reshaped WHERE k = $1", 1).Scan(&v); err != nil || v != 10 {
		t.Fatalf("first query: %d %v", v, err)
	}
	mustExec(t, conn, "DROP TABLE reshaped")
	mustExec(t, conn, "CREATE TABLE reshaped (k INTEGER, v TEXT)")
	mustExec(t, conn, "INSERT INTO reshaped VALUES (1, 'abcd')")
	err := conn.QueryRow(ctx, "SELECT v FROM reshaped WHERE k = $1", 1).Scan(&v)
	pgErr := pgError(t, err, "0A000")
	if pgErr.Message != "cached plan must not change result type" {
		t.Errorf("message %q", pgErr.Message)
	}
	var s string
	if err := conn.QueryRow(ctx, "SELECT v FROM reshaped WHERE k = $1", 1).Scan(&s); err != nil || s != "abcd" {
		t.Errorf("retry: %q %v", s, err)
	}
	// Same result types after the DDL: the cached statement just runs against the new table.
	mustExec(t, conn, "DROP TABLE reshaped")
	mustExec(t, conn, "CREATE TABLE reshaped (extra BIGINT, v TEXT, k INTEGER)")
	mustExec(t, conn, "INSERT INTO reshaped VALUES (5, 'new', 1)")
	if err := conn.QueryRow(ctx, "SELECT v FROM reshaped WHERE k = $1", 1).Scan(&s); err != nil || s != "new" {
		t.Errorf("same types: %q %v", s, err)
	}
}

// statement_timeout set through pgx: the long query ends with 57014 in both protocols, the
// connection goes on; a query without rows is pgx.ErrNoRows.
func TestStatementTimeoutAndNoRows(t *testing.T) {
	conn := connect(t)
	ctx := testContext(t)
	setupBig(t, conn)
	mustExec(t, conn, "SET statement_timeout = 200")
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		var n int64
		err := conn.QueryRow(ctx, longQuery, mode).Scan(&n)
		pgErr := pgError(t, err, "57014")
		if pgErr.Message != "canceling statement due to statement timeout" {
			t.Errorf("%v: message %q", mode, pgErr.Message)
		}
		assertUsable(t, conn)
	}
	mustExec(t, conn, "RESET statement_timeout")
	var n int
	if err := conn.QueryRow(ctx, "SELECT 1 WHERE false").Scan(&n); !errors.Is(err, pgx.ErrNoRows) {
		t.Errorf("no rows: %v", err)
	}
}

// A statement cache smaller than the working set: pgx closes evicted statements (Close 'S') and
// prepares them again; every answer stays right.
func TestStatementCacheEviction(t *testing.T) {
	conn, err := pgx.Connect(testContext(t), pgURL+"&statement_cache_capacity=2")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for round := 0; round < 3; round++ {
		for i := 0; i < 5; i++ {
			var n int
			err := conn.QueryRow(testContext(t), fmt.Sprintf("SELECT $1::integer + %d", i), round).Scan(&n)
			if err != nil || n != round+i {
				t.Errorf("round %d, statement %d: %d %v", round, i, n, err)
			}
		}
	}
}

// UUID and BYTEA as a Go application uses them: [16]byte / pgtype.UUID and []byte parameters
// and results in every exec mode (binary in the prepared modes, text in the simple protocol),
// a uuid primary key with gen_random_uuid(), and 22P02 for a bad uuid.
func TestUuidAndBytea(t *testing.T) {
	conn := connect(t)
	ctx := testContext(t)
	mustExec(t, conn, "CREATE TABLE blobs (id UUID PRIMARY KEY DEFAULT gen_random_uuid(), body BYTEA)")
	id := [16]byte{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11}
	body := []byte{0, 1, 2, 0xff, '\\', '\''}
	key := pgtype.UUID{Bytes: id, Valid: true}
	mustExec(t, conn, "INSERT INTO blobs VALUES ($1, $2)", id, body)
	var generated pgtype.UUID
	if err := conn.QueryRow(ctx, "INSERT INTO blobs (body) VALUES ($1) RETURNING id", []byte{}).Scan(&generated); err != nil {
		t.Fatalf("INSERT RETURNING id: %v", err)
	}
	if !generated.Valid || generated.Bytes[6]>>4 != 4 || generated.Bytes[8]>>6 != 2 {
		t.Errorf("gen_random_uuid: %v is no version 4 UUID", generated)
	}
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe,
		pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		var gotID pgtype.UUID
		var gotBody []byte
		var text string
		err := conn.QueryRow(ctx, "SELECT id, body, id::text FROM blobs WHERE id = $1", mode, key).Scan(&gotID, &gotBody, &text)
		if err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if gotID.Bytes != id || string(gotBody) != string(body) || text != "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11" {
			t.Errorf("mode %v: id %x body %x text %q", mode, gotID.Bytes, gotBody, text)
		}
		var n int
		if err := conn.QueryRow(ctx, "SELECT length($1::bytea)", mode, body).Scan(&n); err != nil || n != len(body) {
			t.Errorf("mode %v: length %d %v", mode, n, err)
		}
	}
	_, err := conn.Exec(ctx, "SELECT 'not a uuid'::uuid")
	pgError(t, err, "22P02")
	assertUsable(t, conn)
}
