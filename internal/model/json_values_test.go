package model

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// Counts write what encoding/json writes for the same counts keyed by name: every status
// with a count, in the names' order, zeros left out.
func TestCountsJSONIsEncodingJSON(t *testing.T) {
	for mask := range 1 << len(AllStatuses) {
		c := Counts{}
		byName := map[string]int{}
		for i, s := range AllStatuses {
			switch {
			case mask&(1<<i) != 0:
				c[s], byName[s.String()] = i+1, i+1
			case i%2 == 0:
				c[s] = 0 // kept in the map, left out of the JSON
			}
		}
		got, _ := c.MarshalJSON()
		want, _ := json.Marshal(byName)
		if string(got) != string(want) {
			t.Fatalf("counts %v: %s, encoding/json %s", c, got, want)
		}
		var back Counts
		if err := json.Unmarshal(got, &back); err != nil || len(back) != len(byName) {
			t.Fatalf("counts %s read back as %v (%v)", got, back, err)
		}
	}
	if got, _ := Counts(nil).MarshalJSON(); string(got) != "{}" {
		t.Fatalf("nil counts: %s", got)
	}
}

// Every status has a name, and ParseStatus reads it back.
func TestStatusNames(t *testing.T) {
	if len(statusesByName) != len(AllStatuses) || len(statusNames) != len(AllStatuses) {
		t.Fatalf("%d names, %d by name, %d statuses", len(statusNames), len(statusesByName), len(AllStatuses))
	}
	for _, s := range AllStatuses {
		if back, err := ParseStatus(s.String()); err != nil || back != s {
			t.Fatalf("%v read back as %v (%v)", s, back, err)
		}
	}
	if got := Status(9).String(); got != "status(9)" {
		t.Fatalf("Status(9) = %q", got)
	}
}

// A stamp is written digit by digit as time's formatter writes it, in any zone, from the
// year 0 to 9999, and by the formatter beyond.
func TestStampJSON(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("east", 5*3600+1800), time.FixedZone("west", -7*3600)}
	check := func(at time.Time) {
		s := Stamp{at}
		want, _ := json.Marshal(at.UTC().Format(StampLayout))
		if got, _ := s.MarshalJSON(); string(got) != string(want) {
			t.Fatalf("%v: %s, time's formatter %s", at, got, want)
		}
	}
	r := rand.New(rand.NewPCG(7, 7))
	for range 20_000 {
		check(time.UnixMilli(r.Int64N(400_000_000_000_000) - 100_000_000_000_000).In(zones[r.IntN(len(zones))]))
	}
	for _, at := range []time.Time{{}, time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 2, 5, 4, 3, 2_000_000, zones[1])} {
		check(at)
	}
}

// Each commit-expiry rule is written as its name (ExpiryNone as null) and read back; a
// name no rule has is refused, naming it.
func TestExpiryRuleJSON(t *testing.T) {
	for r := ExpiryNone; r <= ExpiryUnknown; r++ {
		b, err := json.Marshal(r)
		if err != nil || (r == ExpiryNone) != (string(b) == "null") || (r != ExpiryNone && string(b) != `"`+r.String()+`"`) {
			t.Errorf("%d: %s (%v)", r, b, err)
		}
		var back ExpiryRule = ExpiryUnknown
		if err := json.Unmarshal(b, &back); err != nil || back != r {
			t.Errorf("%s read back as %v (%v)", b, back, err)
		}
	}
	var r ExpiryRule
	if err := json.Unmarshal([]byte(`"commit-time-ish"`), &r); err == nil || !strings.Contains(err.Error(), "commit-time-ish") {
		t.Errorf("an unknown name: %v", err)
	}
}

// Whatever the input, reading a rule never panics, and what it reads is written back as
// an equal rule.
func FuzzExpiryRuleJSON(f *testing.F) {
	for _, s := range []string{`null`, `""`, `"never"`, `"commit-time-unsubscribed"`, `7`, `"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var r ExpiryRule
		if json.Unmarshal(b, &r) != nil {
			return
		}
		out, err := json.Marshal(r)
		var back ExpiryRule
		if err != nil || json.Unmarshal(out, &back) != nil || back != r {
			t.Errorf("%q read as %d, written %s, read back %d (%v)", b, r, out, back, err)
		}
	})
}
