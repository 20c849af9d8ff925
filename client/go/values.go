// Go values ↔ the API's typed Value: parameters are sent typed (never spliced into SQL), results
// decoded by their column's pg_oid. Decimals travel as strings both ways.
package meridian

import (
	"database/sql/driver"
	"fmt"
	"strconv"
	"time"

	"meridian.local/client/go/internal/pb"
)

// pg_type oids (proto/README.md, Parameters).
const (
	oidInfer       = 0
	oidBool        = 16
	oidBytea       = 17
	oidInt8        = 20
	oidInt2        = 21
	oidInt4        = 23
	oidText        = 25
	oidFloat4      = 700
	oidFloat8      = 701
	oidBpchar      = 1042
	oidVarchar     = 1043
	oidDate        = 1082
	oidTimestamp   = 1114
	oidTimestampTZ = 1184
	oidNumeric     = 1700
)

const timestampLayout = "2006-01-02 15:04:05.999999"

// toValue converts one (already checked) parameter; strings are left for the server to type
// from context, as PostgreSQL types an untyped literal.
func toValue(v driver.Value) (*pb.Value, uint32, error) {
	switch x := v.(type) {
	case nil:
		return &pb.Value{Kind: &pb.Value_NullValue{NullValue: true}}, oidInfer, nil
	case int64:
		return &pb.Value{Kind: &pb.Value_IntValue{IntValue: x}}, oidInt8, nil
	case float64:
		return &pb.Value{Kind: &pb.Value_DoubleValue{DoubleValue: x}}, oidFloat8, nil
	case bool:
		return &pb.Value{Kind: &pb.Value_BoolValue{BoolValue: x}}, oidBool, nil
	case string:
		return &pb.Value{Kind: &pb.Value_TextValue{TextValue: x}}, oidInfer, nil
	case []byte:
		return &pb.Value{Kind: &pb.Value_BytesValue{BytesValue: x}}, oidBytea, nil
	case time.Time:
		return &pb.Value{Kind: &pb.Value_TextValue{TextValue: x.Format(timestampLayout)}}, oidTimestamp, nil
	}
	return nil, 0, fmt.Errorf("meridian: cannot send a %T as a parameter", v)
}

// CheckNamedValue (driver.NamedValueChecker): the default conversions (ints, floats, bool,
// string, []byte, time.Time, driver.Valuer), and any fmt.Stringer (decimal types) as its text.
func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	if s, ok := nv.Value.(fmt.Stringer); ok {
		if _, isValuer := nv.Value.(driver.Valuer); !isValuer {
			if _, isTime := nv.Value.(time.Time); !isTime {
				nv.Value = s.String()
				return nil
			}
		}
	}
	v, err := driver.DefaultParameterConverter.ConvertValue(nv.Value)
	if err != nil {
		return err
	}
	nv.Value = v
	return nil
}

func fromValue(v *pb.Value, oid uint32) (driver.Value, error) {
	switch k := v.Kind.(type) {
	case nil, *pb.Value_NullValue:
		return nil, nil
	case *pb.Value_BoolValue:
		return k.BoolValue, nil
	case *pb.Value_IntValue:
		return k.IntValue, nil
	case *pb.Value_DoubleValue:
		return k.DoubleValue, nil
	case *pb.Value_BytesValue:
		return k.BytesValue, nil
	case *pb.Value_TextValue:
		s := k.TextValue
		switch oid {
		case oidFloat4, oidFloat8:
			return strconv.ParseFloat(s, 64)
		case oidInt2, oidInt4, oidInt8:
			return strconv.ParseInt(s, 10, 64)
		case oidBool:
			return s == "t" || s == "true", nil
		case oidDate:
			if t, err := time.Parse("2006-01-02", s); err == nil {
				return t, nil
			}
		case oidTimestamp, oidTimestampTZ:
			if t, err := time.Parse("2006-01-02 15:04:05.999999999", s); err == nil {
				return t, nil
			}
		}
		return s, nil // numeric (decimals as strings), text, infinity and BC dates
	}
	return nil, fmt.Errorf("meridian: unknown value kind %T", v.Kind)
}

var typeNames = map[uint32]string{
	oidBool: "BOOL", oidBytea: "BYTEA", oidInt8: "INT8", oidInt2: "INT2", oidInt4: "INT4",
	oidText: "TEXT", oidFloat4: "FLOAT4", oidFloat8: "FLOAT8", oidBpchar: "BPCHAR",
	oidVarchar: "VARCHAR", oidDate: "DATE", oidTimestamp: "TIMESTAMP",
	oidTimestampTZ: "TIMESTAMPTZ", oidNumeric: "NUMERIC",
}
