package plan

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/parse"
	"github.com/offsettui/offsettui/internal/text"
)

// StrategyKind names a reset strategy; the names are kafka-consumer-groups' flags
// without the dashes, and the "name" in reset JSON.
type StrategyKind string

// Strategy kinds. Restore is offsettui's own: put a backup back, unclamped.
const (
	ToEarliest StrategyKind = "to-earliest"
	ToLatest   StrategyKind = "to-latest"
	ToCurrent  StrategyKind = "to-current"
	ToOffset   StrategyKind = "to-offset"
	ShiftBy    StrategyKind = "shift-by"
	ToDatetime StrategyKind = "to-datetime"
	ByDuration StrategyKind = "by-duration"
	FromFile   StrategyKind = "from-file"
	Restore    StrategyKind = "restore"
	// PlainBackup names a backup written by `offsettui backup`, not before a write: the
	// strategy of its manifest.
	PlainBackup StrategyKind = "backup"
)

// StrategyKinds lists every kind in the order help texts show them.
var StrategyKinds = []StrategyKind{ToEarliest, ToLatest, ToCurrent, ToOffset, ShiftBy, ToDatetime, ByDuration, FromFile, FromGroup, Restore}

// Flag returns the command-line flag of the kind ("--shift-by").
func (k StrategyKind) Flag() string { return "--" + string(k) }

// TakesValue reports whether the kind's flag takes a value (delete-offsets,
// delete-group and a plain backup, commands of their own, take none).
func (k StrategyKind) TakesValue() bool {
	switch k {
	case ToEarliest, ToLatest, ToCurrent, DeleteOffsets, DeleteGroup, PlainBackup:
		return false
	}
	return true
}

// FromFileKind reports whether the kind takes its partitions from a file.
func (k StrategyKind) FromFileKind() bool { return k == FromFile || k == Restore }

// ValueName names the kind's value in help texts ("N", "DURATION"); "" when it
// takes none.
func (k StrategyKind) ValueName() string {
	switch k {
	case ToOffset, ShiftBy:
		return "N"
	case ToDatetime:
		return "TIME"
	case ByDuration:
		return "DURATION"
	case FromFile:
		return "CSV"
	case Restore:
		return "BACKUP"
	case FromGroup:
		return "SOURCE"
	}
	return ""
}

// Hint says where the kind puts each partition, in the words of docs/kafka.md:
// the one text the CLI help and the TUI's planner show.
func (k StrategyKind) Hint() string {
	switch k {
	case ToEarliest:
		return "the low watermark: the oldest record still stored"
	case ToLatest:
		return "the high watermark: everything not read yet is skipped"
	case ToCurrent:
		return "the committed offset (no move); a partition without a commit gets high"
	case ToOffset:
		return "offset N on every partition in scope, clamped to low..high"
	case ShiftBy:
		return "committed + N (negative rewinds), clamped to low..high"
	case ToDatetime:
		return "the first record at or after a time, Kafka's format (UTC when no zone)"
	case ByDuration:
		return "the first record at or after now − a duration (PT2H, 2h, 6d23h)"
	case FromFile:
		return "the offsets of a CSV file topic,partition,offset (clamped)"
	case Restore:
		return "a backup put back exactly (unclamped); commits it lacks are deleted"
	case FromGroup:
		return "the committed offsets of group SOURCE (clamped); partitions it has none on stay as they are"
	case DeleteOffsets:
		return "no commit: each commit in scope is deleted, and the consumer starts where its auto.offset.reset says"
	case DeleteGroup:
		return "no group: the group and every commit it has are deleted (an Empty group only)"
	}
	return ""
}

// Strategy says where each partition's new offset comes from. Build it with
// ParseStrategy or FileStrategy, which validate the value as typed.
type Strategy struct {
	Kind StrategyKind
	// Offset is the --to-offset value.
	Offset int64
	// Shift is the --shift-by value.
	Shift int64
	// Time is the --to-datetime value, or now − duration for --by-duration: the
	// timestamp the I/O side looks offsets up for (Input.TimeOffsets).
	Time time.Time
	// Raw is the value as typed (the file name for from-file and restore).
	Raw string
	// File holds the rows of a from-file or restore file, or the source's commits of
	// a from-group plan.
	File []CSVRow
	// Source is the source group of a from-group plan as read when planned
	// (FromGroupStrategy); nil for the other kinds.
	Source *SourceGroup
	// GroupType is, for a restore, the type of the group the backup was taken of, as its
	// manifest says ("" when it does not): a share group's backup restored into a group
	// no broker lists any more makes a share group again.
	GroupType string
}

// MarshalJSON writes {"name":"shift-by","value":"-3"}; value is null for the
// strategies without one.
func (s Strategy) MarshalJSON() ([]byte, error) {
	v := struct {
		Name  StrategyKind `json:"name"`
		Value *string      `json:"value"`
	}{Name: s.Kind}
	if s.Kind.TakesValue() {
		v.Value = &s.Raw
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads {"name","value"} back into Kind and Raw (the parsed fields
// stay zero: re-parse Raw to use them).
func (s *Strategy) UnmarshalJSON(b []byte) error {
	var v struct {
		Name  StrategyKind `json:"name"`
		Value *string      `json:"value"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = Strategy{Kind: v.Name}
	if v.Value != nil {
		s.Raw = *v.Value
	}
	return nil
}

// String names the strategy as its flag is typed: "--shift-by -3", "--to-earliest".
func (s Strategy) String() string {
	if s.Raw == "" {
		return s.Kind.Flag()
	}
	return s.Kind.Flag() + " " + s.Raw
}

// ParseStrategy builds a strategy from one flag and its value as typed. now is the
// clock for --by-duration. Errors name the flag and say what a good value looks
// like. File strategies need their file: use FileStrategy.
func ParseStrategy(kind StrategyKind, value string, now time.Time) (Strategy, error) {
	st := Strategy{Kind: kind, Raw: value}
	v := strings.TrimSpace(value)
	switch kind {
	case ToEarliest, ToLatest, ToCurrent:
		if v != "" {
			return st, fmt.Errorf("%s takes no value (got %q)", kind.Flag(), value)
		}
		st.Raw = ""
	case ToOffset:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return st, fmt.Errorf("%s %q: not a whole number; e.g. %s 1200", kind.Flag(), value, kind.Flag())
		}
		st.Offset = n
	case ShiftBy:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return st, fmt.Errorf("%s %q: not a whole number; e.g. %s -3 (back 3) or %s 10", kind.Flag(), value, kind.Flag(), kind.Flag())
		}
		st.Shift = n
	case ToDatetime:
		t, err := parse.Datetime(v)
		if err != nil {
			return st, fmt.Errorf("%s: %w", kind.Flag(), err)
		}
		st.Time = t
	case ByDuration:
		d, err := parse.Duration(v)
		if err != nil {
			return st, fmt.Errorf("%s: %w", kind.Flag(), err)
		}
		if d < 0 {
			return st, fmt.Errorf("%s %q: negative duration; it is how far back from now, e.g. PT2H or 2h", kind.Flag(), value)
		}
		st.Time = now.Add(-d).Truncate(time.Millisecond)
		if st.Time.Before(time.Unix(0, 0)) {
			return st, fmt.Errorf("%s %q: reaches back before 1970; Kafka timestamps cannot be negative", kind.Flag(), value)
		}
	case FromGroup:
		if v == "" {
			return st, fmt.Errorf("%s needs the name of the group to copy positions from", kind.Flag())
		}
		st.Raw = v
	case FromFile, Restore:
		return st, fmt.Errorf("%s needs its file read: use FileStrategy", kind.Flag())
	default:
		return st, fmt.Errorf("unknown reset strategy %q", kind)
	}
	return st, nil
}

// FileStrategy builds a from-file or restore strategy from the file's content; name
// is the path as typed. A from-file row may not have an empty offset (Kafka's files
// always have one; only backups leave it empty) nor a negative one: Kafka's
// --from-file refuses the whole file then ("Invalid negative offset"), it does not
// clamp it as it clamps --to-offset and --shift-by.
func FileStrategy(kind StrategyKind, name string, r io.Reader) (Strategy, error) {
	if !kind.FromFileKind() {
		return Strategy{}, fmt.Errorf("%s does not read a file", kind.Flag())
	}
	rows, err := ParseOffsetsCSV(r, name)
	if err != nil {
		return Strategy{}, fmt.Errorf("%s: %w", kind.Flag(), err)
	}
	if kind == FromFile {
		for _, row := range rows {
			if row.Offset == nil {
				return Strategy{}, fmt.Errorf("%s: %s line %d: empty offset; only --restore files (offsettui backups) may leave it empty",
					kind.Flag(), name, row.Line)
			}
			if *row.Offset < 0 {
				return Strategy{}, fmt.Errorf("%s: %s line %d: negative offset %d; kafka-consumer-groups refuses such a file too (Invalid negative offset)",
					kind.Flag(), name, row.Line, *row.Offset)
			}
		}
	}
	return Strategy{Kind: kind, Raw: name, File: rows}, nil
}

// TopicScope selects one topic: all its partitions (Partitions nil) or some.
type TopicScope struct {
	Topic      string
	Partitions []int32
}

// Scope is the partitions a reset covers, as kafka-consumer-groups' flags say:
// --all-topics is every partition the group has a commit on; --topic T is every
// partition of T; --topic T:0,2 those partitions. From-file and restore plans take
// their partitions from the file and ignore the scope.
type Scope struct {
	AllTopics bool
	Topics    []TopicScope
}

// ParseTopicScope reads a --topic value: "t" or "t:0,2".
func ParseTopicScope(s string) (TopicScope, error) {
	topic, parts, hasParts := strings.Cut(strings.TrimSpace(s), ":")
	if err := ValidTopicName(topic); err != nil {
		return TopicScope{}, fmt.Errorf("--topic %q: %v", s, err)
	}
	ts := TopicScope{Topic: topic}
	if !hasParts {
		return ts, nil
	}
	if parts == "" {
		return ts, fmt.Errorf("--topic %q: no partitions after ':'; e.g. %s:0,2 or just %s", s, topic, topic)
	}
	ts.Partitions = []int32{}
	for _, p := range strings.Split(parts, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 32)
		if err != nil || n < 0 {
			return ts, fmt.Errorf("--topic %q: partition %q is not a partition number; e.g. %s:0,2", s, p, topic)
		}
		if !slices.Contains(ts.Partitions, int32(n)) {
			ts.Partitions = append(ts.Partitions, int32(n))
		}
	}
	slices.Sort(ts.Partitions)
	return ts, nil
}

// NewScope builds the scope of a reset from --all-topics and the --topic values,
// checking that they fit the strategy: exactly one of them for the strategies that
// need a scope, neither for from-file and restore.
func NewScope(allTopics bool, topicArgs []string, kind StrategyKind) (Scope, error) {
	if kind.FromFileKind() {
		if allTopics || len(topicArgs) > 0 {
			return Scope{}, fmt.Errorf("%s takes its partitions from the file; drop --all-topics and --topic", kind.Flag())
		}
		return Scope{}, nil
	}
	switch {
	case allTopics && len(topicArgs) > 0:
		return Scope{}, fmt.Errorf("--all-topics and --topic cannot be combined")
	case !allTopics && len(topicArgs) == 0 && kind == FromGroup:
		return Scope{}, nil // every partition the source has a commit on
	case !allTopics && len(topicArgs) == 0:
		return Scope{}, fmt.Errorf("one of --all-topics (partitions with a commit) or --topic T[:p,p] is needed")
	}
	sc := Scope{AllTopics: allTopics}
	for _, a := range topicArgs {
		ts, err := ParseTopicScope(a)
		if err != nil {
			return Scope{}, err
		}
		sc.Topics = append(sc.Topics, ts)
	}
	return sc, nil
}

// Partitions returns, sorted, the partitions the scope selects given the group's
// commits and the topics' partition counts, and an unknown-partition blocker for
// each topic or partition that does not exist.
func (s Scope) Partitions(in Input) ([]model.TP, []Blocker) {
	set := map[model.TP]bool{}
	var blockers []Blocker
	add := func(tp model.TP) {
		n, ok := in.Partitions[tp.Topic]
		switch {
		case !ok:
			blockers = append(blockers, topicBlocker(tp.Topic))
		case tp.Partition >= int32(n):
			blockers = append(blockers, partitionBlocker(tp, n))
		default:
			set[tp] = true
		}
	}
	if s.AllTopics {
		blockers = append(blockers, hiddenTopicsBlockers(in)...)
		for tp := range in.Committed {
			add(tp)
		}
	}
	for _, ts := range s.Topics {
		n, ok := in.Partitions[ts.Topic]
		switch {
		case ts.Partitions != nil:
			for _, p := range ts.Partitions {
				add(model.TP{Topic: ts.Topic, Partition: p})
			}
		case !ok:
			blockers = append(blockers, topicBlocker(ts.Topic))
		default:
			for p := 0; p < n; p++ {
				set[model.TP{Topic: ts.Topic, Partition: int32(p)}] = true
			}
		}
	}
	out := make([]model.TP, 0, len(set))
	for tp := range set {
		out = append(out, tp)
	}
	slices.SortFunc(out, model.CompareTP)
	return out, dedupeBlockers(blockers)
}

// hiddenTopicsBlockers refuses --all-topics when topics may be hidden from the principal:
// Kafka leaves their commits (and a share group's start offsets) out without a word.
func hiddenTopicsBlockers(in Input) []Blocker {
	if v := in.AllTopicsVisible; v != nil && *v {
		return nil
	}
	return []Blocker{{Kind: BlockHiddenTopics, Message: "--all-topics means every partition the group has " +
		"a commit on, but topics may be hidden from this principal (Kafka leaves their commits out without a word): " +
		"name the topics with --topic, or run as a principal that may describe every topic"}}
}

func topicBlocker(topic string) Blocker {
	return Blocker{Kind: BlockUnknownPartition, Topic: model.Ptr(topic),
		Message: fmt.Sprintf("topic %s does not exist (or is not visible to this principal)", topic)}
}

func partitionBlocker(tp model.TP, n int) Blocker {
	return Blocker{Kind: BlockUnknownPartition, Topic: model.Ptr(tp.Topic), Partition: model.Ptr(tp.Partition),
		Message: fmt.Sprintf("partition %s does not exist: %s has %s (0..%d)", tp, tp.Topic, text.Plural(n, "partition"), n-1)}
}

// dedupeBlockers drops repeated blockers; the result is never nil (JSON []).
func dedupeBlockers(bs []Blocker) []Blocker {
	out := []Blocker{}
	seen := map[string]bool{}
	for _, b := range bs {
		if k := string(b.Kind) + "\x00" + b.Message; !seen[k] {
			seen[k] = true
			out = append(out, b)
		}
	}
	return out
}
