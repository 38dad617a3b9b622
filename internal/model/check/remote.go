package check

import (
	"encoding/json"
	"time"
)

// A check answered by `offsettui serve` from its last snapshot (docs/api.md): the same
// proof, read back by `check --server`, which may still refuse it.

// Reasons that keep a check answered by a server incomplete.
const (
	// CodeSnapshotTooOld: the server's snapshot is older than check --max-age.
	CodeSnapshotTooOld = "snapshot-too-old"
	// CodeRatesTooShort: the server's rates span less than check --sample asks.
	CodeRatesTooShort = "rates-too-short"
	// CodeRiskWindowDiffers: the server reads at-risk for another --risk-window than the
	// check asks, and at-risk is decided when the snapshot is read.
	CodeRiskWindowDiffers = "risk-window-differs"
)

// ExitCode is the verdict's process exit code (docs/cli.md): 0 pass, 1 fail, 2 incomplete.
func (v Verdict) ExitCode() int {
	switch v {
	case VerdictPass:
		return 0
	case VerdictFail:
		return 1
	}
	return 2
}

// Incomplete adds a problem that keeps the proof from passing, and sets the verdict, the
// summary and the exit code again: whatever the partitions say, the result is incomplete.
func (r *Result) Incomplete(code, message string) {
	r.Problems = append(r.Problems, Reason{Code: code, Result: VerdictIncomplete, Message: message})
	r.finish()
	r.ExitCode = r.Verdict.ExitCode()
}

// UnmarshalJSON reads what MarshalJSON writes.
func (o *Options) UnmarshalJSON(b []byte) error {
	var v struct {
		Topics              []string `json:"topics"`
		RecoveryWindowMs    int64    `json:"recoveryWindowMs"`
		AssumeReset         string   `json:"assumeReset"`
		RiskWindowMs        int64    `json:"riskWindowMs"`
		RequireCommitTimes  bool     `json:"requireCommitTimes"`
		IgnoreMissedDeletes bool     `json:"ignoreMissedDeletes"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*o = Options{Topics: v.Topics, RecoveryWindow: time.Duration(v.RecoveryWindowMs) * time.Millisecond, AssumeReset: v.AssumeReset,
		RiskWindow: time.Duration(v.RiskWindowMs) * time.Millisecond, RequireCommitTimes: v.RequireCommitTimes,
		IgnoreMissedDeletes: v.IgnoreMissedDeletes}
	return nil
}
