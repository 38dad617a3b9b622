package faultproxy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// toProxy is the endpoint rewrite the wire tests use: broker id → 127.0.0.9:9000+id.
func toProxy(id int32, host *string, port *int32) error {
	*host, *port = "127.0.0.9", 9000+id
	return nil
}

// headerTags is a response header with one tagged field (tag 5, two bytes).
var headerTags = []byte{1, 5, 2, 0xAA, 0xBB}

// frameOf encodes resp as a response frame (correlation id 7), with headerTags
// in the header of flexible answers other than ApiVersions.
func frameOf(resp kmsg.Response) []byte {
	out := []byte{0, 0, 0, 0, 0, 0, 0, 7}
	if resp.IsFlexible() && resp.Key() != int16(kmsg.ApiVersions) {
		out = append(out, headerTags...)
	}
	out = resp.AppendTo(out)
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out
}

func TestRewriteResponse(t *testing.T) {
	brokers := func(id ...int32) []kmsg.MetadataResponseBroker {
		var out []kmsg.MetadataResponseBroker
		for _, i := range id {
			out = append(out, kmsg.MetadataResponseBroker{NodeID: i, Host: "kafka-" + string(rune('a'+i)), Port: 9092})
		}
		return out
	}
	coordinator := func(key string, id int32) kmsg.FindCoordinatorResponseCoordinator {
		if id < 0 {
			return kmsg.FindCoordinatorResponseCoordinator{Key: key, NodeID: -1, Port: -1, ErrorCode: 15}
		}
		return kmsg.FindCoordinatorResponseCoordinator{Key: key, NodeID: id, Host: "kafka", Port: 9092 + id}
	}
	records := []byte("opaque record batches")
	cases := []struct {
		name    string
		resp    kmsg.Response
		changed bool // want the endpoints rewritten (else the same bytes back)
	}{
		{"Metadata v0", &kmsg.MetadataResponse{Version: 0, Brokers: brokers(1, 2)}, true},
		{"Metadata v9 flexible", &kmsg.MetadataResponse{Version: 9, Brokers: brokers(0, 1, 2), ClusterID: kmsg.StringPtr("c")}, true},
		{"Metadata v13", &kmsg.MetadataResponse{Version: 13, Brokers: brokers(3)}, true},
		{"FindCoordinator v0", &kmsg.FindCoordinatorResponse{Version: 0, NodeID: 2, Host: "kafka", Port: 9094}, true},
		{"FindCoordinator v3 flexible", &kmsg.FindCoordinatorResponse{Version: 3, NodeID: 1, Host: "kafka", Port: 9093}, true},
		{"FindCoordinator v3 no coordinator", &kmsg.FindCoordinatorResponse{Version: 3, ErrorCode: 15, NodeID: -1, Port: -1}, false},
		{"FindCoordinator v6 batched", &kmsg.FindCoordinatorResponse{Version: 6, Coordinators: []kmsg.FindCoordinatorResponseCoordinator{
			coordinator("g1", 1), coordinator("g2", -1), coordinator("g3", 2)}}, true},
		{"DescribeCluster v2", &kmsg.DescribeClusterResponse{Version: 2, ClusterID: "c", Brokers: []kmsg.DescribeClusterResponseBroker{
			{NodeID: 4, Host: "kafka", Port: 1}}}, true},
		{"Produce v9 (no leader hints)", &kmsg.ProduceResponse{Version: 9}, false},
		{"Produce v10 without leader hints", &kmsg.ProduceResponse{Version: 10, Topics: []kmsg.ProduceResponseTopic{{Topic: "t"}}}, false},
		{"Produce v11 with a leader hint", &kmsg.ProduceResponse{Version: 11, Brokers: []kmsg.ProduceResponseBroker{{NodeID: 2, Host: "kafka", Port: 1}}}, true},
		{"Fetch v15", &kmsg.FetchResponse{Version: 15, Topics: []kmsg.FetchResponseTopic{{Topic: "t",
			Partitions: []kmsg.FetchResponseTopicPartition{{RecordBatches: records}}}}}, false},
		{"Fetch v16 with a leader hint", &kmsg.FetchResponse{Version: 16, Brokers: []kmsg.FetchResponseBroker{{NodeID: 1, Host: "kafka", Port: 1}},
			Topics: []kmsg.FetchResponseTopic{{Partitions: []kmsg.FetchResponseTopicPartition{{RecordBatches: records}}}}}, true},
		{"ShareFetch v1", &kmsg.ShareFetchResponse{Version: 1, NodeEndpoints: []kmsg.ShareFetchResponseNodeEndpoint{{NodeID: 0, Host: "kafka", Port: 1}}}, true},
		{"ShareAcknowledge v1", &kmsg.ShareAcknowledgeResponse{Version: 1, NodeEndpoints: []kmsg.ShareAcknowledgeResponseNodeEndpoint{{NodeID: 0, Host: "kafka", Port: 1}}}, true},
		{"ApiVersions v3 (v0 header)", &kmsg.ApiVersionsResponse{Version: 3, ApiKeys: []kmsg.ApiVersionsResponseApiKey{{ApiKey: 3, MaxVersion: 13}}}, false},
		{"ListOffsets v9 (names no broker)", &kmsg.ListOffsetsResponse{Version: 9}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := frameOf(tc.resp)
			key, version := kmsg.Key(tc.resp.Key()), tc.resp.GetVersion()
			out, err := rewriteResponse(bytes.Clone(in), key, version, toProxy)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.changed {
				if !bytes.Equal(out, in) {
					t.Errorf("rewritten:\n%x\nwant the same bytes:\n%x", out, in)
				}
				return
			}
			if bytes.Equal(out, in) {
				t.Fatal("nothing rewritten")
			}
			if tc.resp.IsFlexible() && !bytes.Equal(out[8:8+len(headerTags)], headerTags) {
				t.Errorf("response header tags %x; want %x kept", out[8:8+len(headerTags)], headerTags)
			}
			req := tc.resp.RequestKind()
			req.SetVersion(version)
			got, _, err := decodeResponse(out, kmsg.Key(req.Key()), req.GetVersion())
			if err != nil {
				t.Fatalf("the rewritten answer does not decode: %v", err)
			}
			want, _, err := decodeResponse(in, kmsg.Key(req.Key()), req.GetVersion())
			if err != nil {
				t.Fatal(err)
			}
			_ = eachEndpoint(want, func(id int32, host *string, port *int32) error {
				if id >= 0 {
					return toProxy(id, host, port)
				}
				return nil
			})
			if !reflect.DeepEqual(got, want) {
				t.Errorf("rewritten answer:\n%+v\nwant:\n%+v", got, want)
			}
		})
	}
}

func TestRewriteResponseErrors(t *testing.T) {
	meta := frameOf(&kmsg.MetadataResponse{Version: 12, Brokers: []kmsg.MetadataResponseBroker{{NodeID: 1, Host: "h", Port: 1}}})
	cases := []struct {
		name    string
		frame   []byte
		version int16
	}{
		{"version kmsg does not know", meta, 99},
		{"body cut short", meta[:len(meta)-3], 12},
		{"header tags cut short", meta[:9], 12},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := rewriteResponse(tc.frame, kmsg.Metadata, tc.version, toProxy); !errors.Is(err, errProtocol) {
				t.Errorf("err = %v; want a protocol error", err)
			}
		})
	}
}

func TestReadFrame(t *testing.T) {
	cases := []struct {
		name    string
		in      []byte
		want    []byte
		wantErr error
	}{
		{"whole", []byte{0, 0, 0, 2, 'a', 'b', 'c'}, []byte{0, 0, 0, 2, 'a', 'b'}, nil},
		{"negative size", []byte{0xff, 0xff, 0xff, 0xff}, nil, errProtocol},
		{"too large", []byte{0x7f, 0, 0, 0}, nil, errProtocol},
		{"cut short", []byte{0, 0, 0, 9, 'a'}, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readFrame(bytes.NewReader(tc.in))
			if tc.want != nil && (err != nil || !bytes.Equal(got, tc.want)) {
				t.Errorf("readFrame = %x, %v; want %x", got, err, tc.want)
			}
			if tc.want == nil && (err == nil || tc.wantErr != nil && !errors.Is(err, tc.wantErr)) {
				t.Errorf("readFrame err = %v; want %v", err, tc.wantErr)
			}
		})
	}
}

// FuzzRewriteResponse: whatever a broker sends, rewriting never panics; an
// answer of a key that names no broker passes unchanged; and a rewritten answer
// rewrites to itself (it decodes, and names only the proxy).
func FuzzRewriteResponse(f *testing.F) {
	for _, r := range []kmsg.Response{
		&kmsg.MetadataResponse{Version: 9, Brokers: []kmsg.MetadataResponseBroker{{NodeID: 1, Host: "h", Port: 1}}},
		&kmsg.FindCoordinatorResponse{Version: 4, Coordinators: []kmsg.FindCoordinatorResponseCoordinator{{Key: "g", NodeID: 1, Host: "h", Port: 1}}},
		&kmsg.FetchResponse{Version: 16, Brokers: []kmsg.FetchResponseBroker{{NodeID: 1, Host: "h", Port: 1}}},
		&kmsg.ApiVersionsResponse{Version: 3},
	} {
		f.Add(r.Key(), r.GetVersion(), frameOf(r)[8:])
	}
	f.Fuzz(func(t *testing.T, key, version int16, body []byte) {
		frame := binary.BigEndian.AppendUint32(nil, uint32(len(body)+4))
		frame = append(frame, 0, 0, 0, 7)
		frame = append(frame, body...)
		out, err := rewriteResponse(bytes.Clone(frame), kmsg.Key(key), version, toProxy)
		if err != nil {
			return
		}
		if _, ok := minRewriteVersion[kmsg.Key(key)]; !ok && !bytes.Equal(out, frame) {
			t.Fatalf("%s answer changed", kmsg.Key(key).Name())
		}
		again, err := rewriteResponse(bytes.Clone(out), kmsg.Key(key), version, toProxy)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("rewriting the rewritten answer: %v\n%x\n%x", err, again, out)
		}
	})
}
