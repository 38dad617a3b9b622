package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"
)

// Groups written in chunks by several goroutines are the bytes one writer writes, in order.
func TestGroupsJSONInChunks(t *testing.T) {
	for _, n := range []int{2 * groupChunk, 3*groupChunk + 3} {
		s := fleetSnapshot(n)
		var got bytes.Buffer
		if err := DescribeJSON(&got, s); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		bw := bufio.NewWriter(&want)
		jw := jsonWriter{w: bw}
		jw.array(false, len(s.Groups), func(i int) { jw.group(&s.Groups[i]) })
		if err := bw.Flush(); err != nil || jw.err != nil {
			t.Fatal(err, jw.err)
		}
		var doc struct{ Groups json.RawMessage }
		if err := json.Unmarshal(got.Bytes(), &doc); err != nil {
			t.Fatalf("%d groups: not JSON: %v", n, err)
		}
		if !bytes.Equal(doc.Groups, want.Bytes()) {
			t.Errorf("%d groups: the chunked groups (%d bytes) differ from one writer's (%d bytes)", n, len(doc.Groups), want.Len())
		}
	}
}

// The table written in chunks is the bytes one writer writes, group after group.
func TestDescribeInChunks(t *testing.T) {
	for _, n := range []int{2 * groupChunk, 3*groupChunk + 3} {
		s := fleetSnapshot(n)
		s.Groups[n-1].Group = "the-last"
		var got bytes.Buffer
		if err := DescribeFit(&got, s, 0); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		bw := bufio.NewWriter(&want)
		var rows aligned
		for i := range s.Groups {
			describeGroup(bw, &rows, &s.Groups[i], s.Cluster, false, false, 0)
		}
		if err := bw.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(got.Bytes(), want.Bytes()) || !bytes.Contains(want.Bytes(), []byte("the-last")) {
			t.Errorf("%d groups: the chunked table (%d bytes) does not hold one writer's groups (%d bytes) in order", n, got.Len(), want.Len())
		}
	}
}

// A failed write of a chunked table is reported.
func TestDescribeInChunksWriteError(t *testing.T) {
	s := fleetSnapshot(3 * groupChunk)
	if err := DescribeFit(&failWriter{n: 200 << 10}, s, 0); err == nil {
		t.Fatal("a write that failed was not reported")
	}
}
