package sampler

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// fakeClock advances only when slept on, or when a take says it took time.
type fakeClock struct{ now time.Time }

func (f *fakeClock) clock() Clock {
	return Clock{
		Now: func() time.Time { return f.now },
		Sleep: func(ctx context.Context, d time.Duration) error {
			if d > 0 {
				f.now = f.now.Add(d)
			}
			return ctx.Err()
		},
	}
}

var start = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

func TestRunSchedule(t *testing.T) {
	tests := []struct {
		name     string
		plan     Plan
		takes    []time.Duration // how long each take lasts
		want     string          // offsets of the takes from start; * marks last
		wantCall int
	}{
		{"30s every 10s: four snapshots, the last at 30s", Plan{For: 30 * time.Second, Every: 10 * time.Second},
			nil, "[0s 10s 20s 30s*]", 4},
		{"25s every 10s: the last at 25s", Plan{For: 25 * time.Second, Every: 10 * time.Second},
			nil, "[0s 10s 20s 25s*]", 4},
		{"shorter than the interval: still two", Plan{For: 3 * time.Second, Every: 10 * time.Second},
			nil, "[0s 3s*]", 2},
		{"a slow snapshot skips the slots it missed", Plan{For: 40 * time.Second, Every: 10 * time.Second},
			[]time.Duration{0, 25 * time.Second}, "[0s 10s 40s*]", 3},
		{"overrunning the end: the last one at once", Plan{For: 20 * time.Second, Every: 10 * time.Second},
			[]time.Duration{0, 30 * time.Second}, "[0s 10s 40s*]", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeClock{now: start}
			var got []string
			err := Run(context.Background(), tc.plan, f.clock(), func(_ context.Context, last bool) error {
				mark := ""
				if last {
					mark = "*"
				}
				got = append(got, f.now.Sub(start).String()+mark)
				if i := len(got) - 1; i < len(tc.takes) {
					f.now = f.now.Add(tc.takes[i])
				}
				return nil
			})
			if err != nil || fmt.Sprint(got) != tc.want {
				t.Errorf("takes %v (err %v), want %s", got, err, tc.want)
			}
		})
	}
}

func TestRunWatchEndsWithContext(t *testing.T) {
	f := &fakeClock{now: start}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := Run(ctx, Plan{Every: 5 * time.Second}, f.clock(), func(context.Context, bool) error {
		n++
		if n == 3 {
			cancel() // Ctrl-C
		}
		return nil
	})
	if err != nil || n != 3 || f.now.Sub(start) != 15*time.Second {
		t.Errorf("n %d, elapsed %v, err %v", n, f.now.Sub(start), err)
	}
}

func TestRunStopsAtFirstError(t *testing.T) {
	f := &fakeClock{now: start}
	boom := errors.New("boom")
	n := 0
	err := Run(context.Background(), Plan{For: time.Minute, Every: time.Second}, f.clock(), func(context.Context, bool) error {
		n++
		if n == 2 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || n != 2 {
		t.Errorf("n %d, err %v", n, err)
	}
}
