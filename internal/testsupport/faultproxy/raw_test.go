package faultproxy

import (
	"net"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// raw is a bare Kafka connection for tests that need a request at an exact
// version, one request per round trip and nothing sent behind their back (no
// client library). It learns the broker's versions with ApiVersions v0 first.
type raw struct {
	t        *testing.T
	c        net.Conn
	corrID   int32
	versions map[kmsg.Key]kmsg.ApiVersionsResponseApiKey
}

func dialRaw(t *testing.T, addr string) *raw {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	r := &raw{t: t, c: c, versions: map[kmsg.Key]kmsg.ApiVersionsResponseApiKey{}}
	resp := r.roundTrip(&kmsg.ApiVersionsRequest{Version: 0}).(*kmsg.ApiVersionsResponse)
	for _, k := range resp.ApiKeys {
		r.versions[kmsg.Key(k.ApiKey)] = k
	}
	return r
}

// supports says whether the broker takes key at version.
func (r *raw) supports(key kmsg.Key, version int16) bool {
	k, ok := r.versions[key]
	return ok && k.MinVersion <= version && version <= k.MaxVersion
}

// newest is the highest version of key that both the broker and kmsg know.
func (r *raw) newest(key kmsg.Key) int16 {
	return min(r.versions[key].MaxVersion, key.Request().MaxVersion())
}

// roundTrip sends req at its version and decodes the answer; any failure fails
// the test.
func (r *raw) roundTrip(req kmsg.Request) kmsg.Response {
	r.t.Helper()
	r.send(req)
	_ = r.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	frame, err := readFrame(r.c)
	if err != nil {
		r.t.Fatalf("answer to %s v%d: %v", kmsg.Key(req.Key()).Name(), req.GetVersion(), err)
	}
	resp, _, err := decodeResponse(frame, kmsg.Key(req.Key()), req.GetVersion())
	if err != nil {
		r.t.Fatal(err)
	}
	if corrID, _ := responseCorrID(frame); corrID != r.corrID {
		r.t.Fatalf("answer carries correlation id %d; want %d", corrID, r.corrID)
	}
	return resp
}

// send writes req without waiting for its answer.
func (r *raw) send(req kmsg.Request) {
	r.t.Helper()
	r.corrID++
	if _, err := r.c.Write(kmsg.NewRequestFormatter(kmsg.FormatterClientID("raw")).AppendRequest(nil, req, r.corrID)); err != nil {
		r.t.Fatalf("send %s v%d: %v", kmsg.Key(req.Key()).Name(), req.GetVersion(), err)
	}
}

// next waits up to d for the next answer frame.
func (r *raw) next(d time.Duration) ([]byte, error) {
	_ = r.c.SetReadDeadline(time.Now().Add(d))
	return readFrame(r.c)
}
