package model

import (
	"testing"
	"time"
)

func TestTexts(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Thousands(0), "0"}, {Thousands(999), "999"}, {Thousands(1000), "1,000"}, {Thousands(int64(-1234567)), "-1,234,567"},
		{Thousands(123456), "123,456"}, {OptThousands(nil), "-"}, {OptThousands(Ptr[int64](12345)), "12,345"},
		{HumanDuration(0), "0s"}, {HumanDuration(45 * time.Second), "45s"}, {HumanDuration(12*time.Minute + 5*time.Second), "12m5s"},
		{HumanDuration(3*time.Hour + 12*time.Minute), "3h12m"}, {HumanDuration(52 * time.Hour), "2d4h"}, {HumanDuration(72 * time.Hour), "3d"},
		{HumanDuration(-90 * time.Second), "-1m30s"}, {HumanDuration(250 * time.Millisecond), "250ms"},
		{Plural(1, "record"), "1 record"}, {Plural(0, "record"), "0 records"}, {Plural(int64(1200), "partition"), "1,200 partitions"},
		{Plural(-1, "record"), "-1 record"},
		{Counts{StatusOK: 3}.Text(), "OK 3"},
		{Counts{StatusOK: 3, StatusMissing: 1, StatusAtRisk: 2}.Text(), "MISSING 1  AT-RISK 2"},
		{Counts{}.Text(), ""},
		{Totals{Duplicates: 1, Skipped: 1200, Partitions: 1}.String(), "re-delivers 1 record · skips 1,200 · 0 already lost · 1 partition"},
		{Totals{Duplicates: 3, Partitions: 2}.String(), "re-delivers 3 records · skips 0 · 0 already lost · 2 partitions"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// Every status has its legend; the unknown one is never taken for another.
func TestStatusMeaning(t *testing.T) {
	seen := map[string]Status{}
	for _, s := range AllStatuses {
		m := s.Meaning()
		if prev, dup := seen[m]; dup || m == "" {
			t.Errorf("%s: meaning %q (also %s)", s, m, prev)
		}
		seen[m] = s
	}
}

func TestExplainGrammar(t *testing.T) {
	p := &GroupPartition{Topic: "outbox", Status: StatusExpired, Committed: Ptr[int64](29), Lost: Ptr[int64](1), Low: Ptr[int64](30), High: Ptr[int64](40)}
	if got, want := Explain("fanout", p, nil, time.Hour), "1 record (29..29) was deleted before fanout read it"; got[:len(want)] != want {
		t.Errorf("Explain = %q, want it to start %q", got, want)
	}
}
