package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/offsettui/offsettui/internal/model"
)

// DescribeJSON writes a snapshot as the one JSON document of `describe -o json`
// (docs/json.md), byte for byte what encoding/json writes for model.Snapshot
// without HTML escaping, but one group at a time through a buffer: no second
// copy of a document that is a hundred megabytes at fleet scale, and the first
// group leaves before the last is rendered. Partition rows, the bulk of the
// document, are written without reflection.
func DescribeJSON(w io.Writer, s model.Snapshot) error {
	bw := bufio.NewWriterSize(w, outputBuffer)
	jw := jsonWriter{w: bw}
	jw.raw(`{"cluster":`)
	jw.value(s.Cluster)
	jw.raw(`,"groups":`)
	jw.groups(s.Groups)
	jw.raw(`,"topics":`)
	jw.value(s.Topics)
	jw.raw(`,"errors":`)
	jw.value(s.Errors)
	jw.raw(`,"window":`)
	jw.value(s.Window)
	jw.raw(`,"baseline":`)
	jw.value(s.Baseline)
	jw.raw("}\n")
	if jw.err != nil {
		return jw.err
	}
	return bw.Flush()
}

// outputBuffer is the size of the buffer between a writer of this package and
// the terminal or pipe: few system calls, and output still flows while a
// large snapshot is written.
const outputBuffer = 64 << 10

// jsonWriter writes JSON pieces and keeps the first error.
type jsonWriter struct {
	w   sink
	buf []byte // scratch for one partition row or one value
	err error
}

// sink is where a report is written: the output's buffer, or a chunk of groups' own.
type sink interface {
	io.Writer
	io.StringWriter
	io.ByteWriter
}

func (j *jsonWriter) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

func (j *jsonWriter) bytes(b []byte) {
	if j.err == nil {
		_, j.err = j.w.Write(b)
	}
}

// array writes a JSON array of n items, each by item, or null for a nil
// slice, as encoding/json writes slices.
func (j *jsonWriter) array(isNil bool, n int, item func(i int)) {
	if isNil {
		j.raw("null")
		return
	}
	j.raw("[")
	for i := range n {
		if i > 0 {
			j.raw(",")
		}
		item(i)
	}
	j.raw("]")
}

// value writes v as encoding/json does (without HTML escaping).
func (j *jsonWriter) value(v any) {
	if j.err != nil {
		return
	}
	j.buf, j.err = appendMarshal(j.buf[:0], v)
	j.bytes(j.buf)
}

// partition writes one row, field by field in model.GroupPartition's order.
func (j *jsonWriter) partition(p *model.GroupPartition) {
	if j.err != nil {
		return
	}
	b := append(j.buf[:0], `{"topic":`...)
	b = appendString(b, p.Topic)
	b = append(b, `,"partition":`...)
	b = strconv.AppendInt(b, int64(p.Partition), 10)
	b = appendNum(b, `,"low":`, p.Low)
	b = appendNum(b, `,"high":`, p.High)
	b = appendNum(b, `,"lastStable":`, p.LastStable)
	b = appendNum(b, `,"committed":`, p.Committed)
	b = appendNum(b, `,"startOffset":`, p.StartOffset())
	b = appendNum(b, `,"lag":`, p.Lag)
	b = append(b, `,"status":`...)
	b = appendString(b, p.Status.String())
	b = appendNum(b, `,"lost":`, p.Lost())
	b = appendNum(b, `,"beyond":`, p.Beyond())
	b = appendStamp(b, `,"committedTimestamp":`, p.CommittedTimestamp())
	b = appendNum(b, `,"timeLagMs":`, p.TimeLagMs)
	b = appendNum(b, `,"expiresInMs":`, p.ExpiresInMs)
	b = append(b, `,"member":`...)
	if m := p.Member; m == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"memberId":`...)
		b = appendString(b, m.MemberID)
		b = append(b, `,"clientId":`...)
		b = appendString(b, m.ClientID)
		b = append(b, `,"host":`...)
		b = appendString(b, m.Host)
		b = append(b, '}')
	}
	b = appendOptBool(b, `,"subscribed":`, p.Subscribed)
	var err error
	b = append(b, `,"transactionMarkers":`...)
	if b, err = appendOptional(b, p.TransactionMarkers()); err != nil {
		j.err = err
		return
	}
	b = appendOptString(b, `,"markersUnknown":`, p.MarkersUnknown())
	b = appendNum(b, `,"localLow":`, p.LocalLow())
	b = appendOptBool(b, `,"readsRemote":`, p.ReadsRemote())
	b = append(b, `,"compaction":`...)
	if b, err = appendOptional(b, p.Compaction()); err != nil {
		j.err = err
		return
	}
	b = append(b, `,"error":`...)
	if b, err = appendOptional(b, p.Error); err == nil {
		b = append(b, `,"time":`...)
		if b, err = appendOptional(b, p.Time); err == nil {
			b = append(b, `,"change":`...)
			b, err = appendOptional(b, p.Change())
		}
	}
	if err != nil {
		j.err = err
		return
	}
	b = appendStamp(b, `,"commitsExpireAt":`, p.CommitsExpireAt)
	b = appendRule(b, `,"commitsExpireBy":`, p.CommitsExpireBy)
	b = append(b, '}')
	j.buf = b
	j.bytes(b)
}

// appendStamp appends key and the time as model.Stamp writes it, or null.
func appendStamp(b []byte, key string, s *model.Stamp) []byte {
	b = append(b, key...)
	if s == nil {
		return append(b, "null"...)
	}
	return s.AppendJSON(b)
}

// appendOptional appends null for a nil v (the common case, kept cheap) and
// what encoding/json writes otherwise.
func appendOptional[T any](b []byte, v *T) ([]byte, error) {
	if v == nil {
		return append(b, "null"...), nil
	}
	return appendMarshal(b, v)
}

// appendOptString appends key and the string, or null.
func appendOptString(b []byte, key string, v *string) []byte {
	if v == nil {
		return append(append(b, key...), "null"...)
	}
	return appendKeyString(b, key, *v)
}

// appendOptBool appends key and the boolean, or null.
func appendOptBool(b []byte, key string, v *bool) []byte {
	b = append(b, key...)
	if v == nil {
		return append(b, "null"...)
	}
	return strconv.AppendBool(b, *v)
}

// appendNum appends key and the number, or null.
func appendNum(b []byte, key string, v *int64) []byte {
	b = append(b, key...)
	if v == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, *v, 10)
}

// appendString appends s as a JSON string. Plain printable ASCII is copied;
// anything else is left to encoding/json, so escaping is always its own.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			out, err := appendMarshal(b, s)
			if err != nil { // a string always encodes
				panic(err)
			}
			return out
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendFloat appends f as encoding/json writes a float64 (its shortest form; an
// exponent only below 1e-6 or from 1e21, without a leading zero in it).
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// appendMarshal appends v as encoding/json writes it without HTML escaping
// (json.Marshal escapes <, > and &; offsettui's documents never have).
func appendMarshal(b []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return b, err
	}
	out := buf.Bytes()
	return out[:len(out)-1], nil // Encode ends with a newline
}
