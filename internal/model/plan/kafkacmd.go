package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
)

// The Kafka command that does what a plan does, for teams whose change process requires
// the vendor's tool and as a cross-check (docs/resets.md#the-equivalent-kafka-command):
// the tool of the group's type, the strategy as its flag, or --from-file with the CSV when
// no flag can say it, and where Kafka's tool would differ from offsettui.

// Equivalent is the Kafka command of a plan.
type Equivalent struct {
	// Command is the command line; BootstrapPlaceholder stands for the cluster's address.
	Command string `json:"command"`
	// CSV is the --from-file file's content the command needs ("" when none): it is
	// named FileName in Command.
	CSV string `json:"csv"`
	// Differs says where Kafka's tool would do otherwise than offsettui.
	Differs []string `json:"differs"`
}

// BootstrapPlaceholder stands for the cluster's bootstrap address in Equivalent.Command.
const BootstrapPlaceholder = "BOOTSTRAP"

// EquivalentFile names the CSV file of an Equivalent that needs one.
const EquivalentFile = "offsets.csv"

// noGuards is what every Kafka group tool lacks of offsettui's guards.
const noGuards = "Kafka's tool writes no backup and no audit line, does not re-read the group right before the write, " +
	"does not watch for a client committing from outside the group, and does not read the offsets back"

// KafkaEquivalent returns the Kafka command of p; nil for a type without a Kafka tool.
func KafkaEquivalent(p Plan) *Equivalent {
	tool, ok := map[string]string{model.TypeClassic: "kafka-consumer-groups.sh", model.TypeConsumer: "kafka-consumer-groups.sh",
		model.TypeShare: shareToolName, model.TypeStreams: streamsToolName}[p.Type]
	if !ok {
		return nil
	}
	e := &Equivalent{Differs: []string{noGuards}}
	args := []string{tool, "--bootstrap-server", BootstrapPlaceholder}
	if p.Strategy.Kind == DeleteOffsets || p.Strategy.Kind == DeleteGroup {
		deleteEquivalent(e, p, args)
		return e
	}
	args = append(args, "--reset-offsets", "--group", ShellWord(p.Group))
	switch k := p.Strategy.Kind; k {
	case FromGroup, Restore:
		var b strings.Builder
		deletes := 0
		for _, r := range p.Rows {
			switch {
			case r.Target != nil:
				fmt.Fprintf(&b, "%s,%d,%d\n", r.Topic, r.Partition, *r.Target)
			case r.deletes():
				deletes++
			}
		}
		e.CSV = b.String()
		args = append(args, "--from-file", EquivalentFile)
		if k == Restore {
			e.Differs = append(e.Differs, "Kafka's tool clamps the file's offsets to [low, high]; a restore puts them back exactly")
		}
		if k == FromGroup {
			e.Differs = append(e.Differs, fmt.Sprintf("the file holds %s's commits as planned, clamped; Kafka's tool has no --from-group", p.Strategy.Raw))
		}
		if deletes > 0 {
			e.Differs = append(e.Differs, fmt.Sprintf("%d partitions had no commit before: --from-file cannot delete a commit; run --delete-offsets for them", deletes))
		}
	case FromFile:
		args = append(args, "--from-file", ShellWord(p.Strategy.Raw))
	default:
		args = append(args, k.Flag())
		if k.TakesValue() {
			args = append(args, ShellWord(p.Strategy.Raw))
		}
		args = append(args, topicArgs(p, false)...)
	}
	e.Command = strings.Join(append(streamsScope(p.Type, args), "--execute"), " ")
	return e
}

// deleteEquivalent fills e with the --delete-offsets or --delete command of p, whose tool
// and bootstrap are args.
func deleteEquivalent(e *Equivalent, p Plan, args []string) {
	if p.Strategy.Kind == DeleteGroup {
		e.Command = strings.Join(append(args, "--delete", "--group", ShellWord(p.Group)), " ")
		if p.Type == model.TypeStreams {
			e.Differs = append(e.Differs, "kafka-streams-groups.sh --delete --delete-all-internal-topics also deletes the application's internal topics; offsettui deletes none")
		}
		return
	}
	args = append(args, "--delete-offsets", "--group", ShellWord(p.Group))
	args = append(args, topicArgs(p, p.Type == model.TypeShare)...)
	e.Command = strings.Join(streamsScope(p.Type, args), " ")
	if p.Type == model.TypeShare {
		e.Differs = append(e.Differs, "Kafka's tool sends the delete of a share group with members, which the broker refuses (NON_EMPTY_GROUP), and exits 0; offsettui refuses it in the plan, exit 3")
		return
	}
	e.Differs = append(e.Differs, "Kafka's tool exits 0 when the broker refused every partition (GROUP_SUBSCRIBED_TO_TOPIC); offsettui exits 3")
}

// streamsScope names the scope flag of kafka-streams-groups.sh (--input-topic) in args.
func streamsScope(typ string, args []string) []string {
	if typ == model.TypeStreams {
		for i, a := range args {
			if a == "--topic" {
				args[i] = "--input-topic"
			}
		}
	}
	return args
}

// topicArgs are --topic flags naming the plan's rows: whole topics (wholeOnly), or each
// topic's partitions.
func topicArgs(p Plan, wholeOnly bool) []string {
	var order []string
	parts := map[string][]int32{}
	for _, r := range p.Rows {
		if !slices.Contains(order, r.Topic) {
			order = append(order, r.Topic)
		}
		parts[r.Topic] = append(parts[r.Topic], r.Partition)
	}
	var out []string
	for _, t := range order {
		ts := TopicScope{Topic: t, Partitions: parts[t]}
		if wholeOnly {
			ts.Partitions = nil
		}
		out = append(out, "--topic", ShellWord(ts.String()))
	}
	return out
}

// ShellWord quotes s for a POSIX shell when it needs it.
func ShellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:,=@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
