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
