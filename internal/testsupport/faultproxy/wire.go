package faultproxy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// maxFrame bounds one request or response; a larger size prefix means the stream
// is not Kafka's protocol (Kafka's own default limit is 100 MiB).
const maxFrame = 256 << 20

// errProtocol marks a stream the proxy cannot follow: it is recorded (Proxy.Err)
// and the connection closed, unlike an ordinary disconnect.
var errProtocol = errors.New("faultproxy: protocol error")

// readFrame reads one size-prefixed frame; the result starts with the 4-byte size.
func readFrame(r io.Reader) ([]byte, error) {
	var size [4]byte
	if _, err := io.ReadFull(r, size[:]); err != nil {
		return nil, err
	}
	n := int32(binary.BigEndian.Uint32(size[:]))
	if n < 0 || n > maxFrame {
		return nil, fmt.Errorf("%w: frame size %d", errProtocol, n)
	}
	frame := make([]byte, 4+int(n))
	copy(frame, size[:])
	if _, err := io.ReadFull(r, frame[4:]); err != nil {
		return nil, err
	}
	return frame, nil
}

// requestHeader is the part of a request header the proxy reads: the fields
// every header version starts with.
type requestHeader struct {
	key     kmsg.Key
	version int16
	corrID  int32
}

func parseRequestHeader(frame []byte) (requestHeader, error) {
	if len(frame) < 12 {
		return requestHeader{}, fmt.Errorf("%w: request of %d bytes has no header", errProtocol, len(frame))
	}
	return requestHeader{
		key:     kmsg.Key(int16(binary.BigEndian.Uint16(frame[4:]))),
		version: int16(binary.BigEndian.Uint16(frame[6:])),
		corrID:  int32(binary.BigEndian.Uint32(frame[8:])),
	}, nil
}

// responseCorrID is the correlation id a response frame starts with.
func responseCorrID(frame []byte) (int32, error) {
	if len(frame) < 8 {
		return 0, fmt.Errorf("%w: response of %d bytes has no correlation id", errProtocol, len(frame))
	}
	return int32(binary.BigEndian.Uint32(frame[4:])), nil
}

// minRewriteVersion is, per API key whose responses name brokers, the first
// version that can name one. Produce and Fetch name brokers only in the leader
// hints of KIP-951 (a tagged field); every other response passes untouched.
var minRewriteVersion = map[kmsg.Key]int16{
	kmsg.Metadata:         0,
	kmsg.FindCoordinator:  0,
	kmsg.DescribeCluster:  0,
	kmsg.Produce:          10,
	kmsg.Fetch:            16,
	kmsg.ShareFetch:       0,
	kmsg.ShareAcknowledge: 0,
}

// endpointFunc replaces a broker endpoint (id, host, port) found in a response.
type endpointFunc func(id int32, host *string, port *int32) error

// rewriteResponse returns frame, the response to a request of key at version,
// with every broker endpoint it names passed through fn. A response that names
// none comes back as the same bytes.
func rewriteResponse(frame []byte, key kmsg.Key, version int16, fn endpointFunc) ([]byte, error) {
	from, ok := minRewriteVersion[key]
	if !ok || version < from {
		return frame, nil
	}
	resp, bodyAt, err := decodeResponse(frame, key, version)
	if err != nil {
		return nil, err
	}
	changed := false
	if err := eachEndpoint(resp, func(id int32, host *string, port *int32) error {
		if id < 0 || *host == "" {
			return nil // "no broker", as in an error answer
		}
		changed = true
		return fn(id, host, port)
	}); err != nil || !changed {
		return frame, err
	}
	return encodeResponse(frame[:bodyAt], resp), nil
}

// decodeResponse decodes frame, the response to a request of key at version, and
// returns where its body starts.
func decodeResponse(frame []byte, key kmsg.Key, version int16) (kmsg.Response, int, error) {
	if len(frame) < 8 {
		return nil, 0, fmt.Errorf("%w: %s answer of %d bytes", errProtocol, key.Name(), len(frame))
	}
	resp := kmsg.ResponseForKey(int16(key))
	if resp == nil || version > resp.MaxVersion() {
		return nil, 0, fmt.Errorf("%w: cannot decode %s v%d", errProtocol, key.Name(), version)
	}
	resp.SetVersion(version)
	// Flexible answers have tagged fields in their header. (ApiVersions answers
	// never do.)
	bodyAt := 8 // size, correlation id
	if resp.IsFlexible() && key != kmsg.ApiVersions {
		n, err := tagsLen(frame[bodyAt:])
		if err != nil {
			return nil, 0, fmt.Errorf("%w: %s v%d response header: %w", errProtocol, key.Name(), version, err)
		}
		bodyAt += n
	}
	if err := resp.ReadFrom(frame[bodyAt:]); err != nil {
		return nil, 0, fmt.Errorf("%w: decode %s v%d response: %w", errProtocol, key.Name(), version, err)
	}
	return resp, bodyAt, nil
}

// encodeResponse is a response frame of header (size, correlation id, header tags) and
// resp, its size set.
func encodeResponse(header []byte, resp kmsg.Response) []byte {
	out := append([]byte(nil), header...)
	out = resp.AppendTo(out)
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out
}

// eachEndpoint calls fn on every broker endpoint of resp, stopping at an error.
func eachEndpoint(resp kmsg.Response, fn endpointFunc) error {
	var err error
	visit := func(id int32, host *string, port *int32) {
		if err == nil {
			err = fn(id, host, port)
		}
	}
	switch r := resp.(type) {
	case *kmsg.MetadataResponse:
		for i := range r.Brokers {
			visit(r.Brokers[i].NodeID, &r.Brokers[i].Host, &r.Brokers[i].Port)
		}
	case *kmsg.FindCoordinatorResponse:
		if r.Version < 4 {
			visit(r.NodeID, &r.Host, &r.Port)
		}
		for i := range r.Coordinators {
			visit(r.Coordinators[i].NodeID, &r.Coordinators[i].Host, &r.Coordinators[i].Port)
		}
	case *kmsg.DescribeClusterResponse:
		for i := range r.Brokers {
			visit(r.Brokers[i].NodeID, &r.Brokers[i].Host, &r.Brokers[i].Port)
		}
	case *kmsg.ProduceResponse:
		for i := range r.Brokers {
			visit(r.Brokers[i].NodeID, &r.Brokers[i].Host, &r.Brokers[i].Port)
		}
	case *kmsg.FetchResponse:
		for i := range r.Brokers {
			visit(r.Brokers[i].NodeID, &r.Brokers[i].Host, &r.Brokers[i].Port)
		}
	case *kmsg.ShareFetchResponse:
		for i := range r.NodeEndpoints {
			visit(r.NodeEndpoints[i].NodeID, &r.NodeEndpoints[i].Host, &r.NodeEndpoints[i].Port)
		}
	case *kmsg.ShareAcknowledgeResponse:
		for i := range r.NodeEndpoints {
			visit(r.NodeEndpoints[i].NodeID, &r.NodeEndpoints[i].Host, &r.NodeEndpoints[i].Port)
		}
	}
	return err
}

// tagsLen is the length of the tagged-field section b starts with (a count, then
// per field a tag, a size and the data, all counts unsigned varints).
func tagsLen(b []byte) (int, error) {
	at := 0
	uvarint := func() (uint64, error) {
		v, n := binary.Uvarint(b[at:])
		if n <= 0 {
			return 0, errors.New("bad tagged fields")
		}
		at += n
		return v, nil
	}
	count, err := uvarint()
	if err != nil {
		return 0, err
	}
	for range count {
		if _, err := uvarint(); err != nil { // tag
			return 0, err
		}
		size, err := uvarint()
		if err != nil {
			return 0, err
		}
		if size > uint64(len(b)-at) {
			return 0, errors.New("tagged field past the end")
		}
		at += int(size)
	}
	return at, nil
}
