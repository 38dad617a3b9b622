package model

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// A row copied from another (one snapshot's rows into the next) gets its own detail on
// its first write: the original keeps what it had.
func TestPartitionDetailCopiedOnWrite(t *testing.T) {
	p := GroupPartition{Topic: "t"}
	p.SetLost(Ptr(int64(3)))
	q := p
	q.SetLost(Ptr(int64(7)))
	q.SetBeyond(Ptr(int64(1)))
	if *p.Lost() != 3 || p.Beyond() != nil || *q.Lost() != 7 || *q.Beyond() != 1 {
		t.Errorf("original lost %v beyond %v, copy lost %v beyond %v; want 3 nil, 7 1", p.Lost(), p.Beyond(), q.Lost(), q.Beyond())
	}
	q.SetLost(nil)
	q.SetBeyond(nil)
	if !reflect.DeepEqual(q, GroupPartition{Topic: "t"}) {
		t.Errorf("a row whose detail values are all cleared is %+v; want one without detail", q)
	}
}

// Every field goes out and comes back, detail included, in docs/json.md's order.
func TestPartitionJSONRoundTrip(t *testing.T) {
	p := GroupPartition{Topic: "t", Partition: 2, Status: StatusExpired, Low: Ptr(int64(5)), High: Ptr(int64(9)),
		LastStable: Ptr(int64(9)), Committed: Ptr(int64(1)), Lag: Ptr(int64(8)), TimeLagMs: Ptr(int64(60_000)),
		ExpiresInMs: Ptr(int64(1)), Member: &MemberRef{MemberID: "m", ClientID: "<c&>", Host: "h"}, Subscribed: Ptr(true),
		Error: &Error{Kind: KindTimeout, Message: "m"}, CommitsExpireBy: ExpiryCommitTime, Time: &PartitionTime{ETA: ETAStopped}}
	p.SetDetail(PartitionDetail{StartOffset: Ptr(int64(4)), Lost: Ptr(int64(4)), MarkersUnknown: Ptr("why"),
		LocalLow: Ptr(int64(6)), ReadsRemote: Ptr(true), Compaction: &Compaction{MayMissDeletes: true}})
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	want := []string{"topic", "partition", "low", "high", "lastStable", "committed", "startOffset", "lag", "status", "lost",
		"beyond", "committedTimestamp", "timeLagMs", "expiresInMs", "member", "subscribed", "transactionMarkers",
		"markersUnknown", "localLow", "readsRemote", "compaction", "error", "time", "change", "commitsExpireAt", "commitsExpireBy"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("keys %v\nwant %v", keys, want)
	}
	var back GroupPartition
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(b) || *back.Lost() != 4 || *back.LocalLow() != 6 || back.Time == nil {
		t.Errorf("round trip:\n%s\n%s", b, again)
	}
}
