package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
)

// The Kafka command that does what a plan does, for teams whose change process requires
// the vendor's tool and as a cross-check (docs/resets.md#the-equivalent-kafka-command):
// the tool of the group's type on the cluster the plan was read from, the strategy as its
// flag with its value in the form the tool reads, or --from-file with the CSV when no flag
// can say it; for a reset its dry run beside it; and where Kafka's tool would differ from
// offsettui.

// Equivalent is the Kafka command of a plan.
type Equivalent struct {
	// Command is the command line, run as printed: it names the cluster's address and the
	// client properties offsettui connected with (ToolConnection).
	Command string `json:"command"`
	// DryRunCommand is Command with --dry-run for --execute: Kafka's tool prints the
	// targets and writes nothing. Nil for --delete-offsets and --delete, whose --dry-run
	// Kafka's tool ignores: it deletes.
	DryRunCommand *string `json:"dryRunCommand"`
	// CSV is the --from-file file's content the command needs ("" when none): it is
	// named EquivalentFile in Command.
	CSV string `json:"csv"`
	// Differs says where Kafka's tool would do otherwise than offsettui, and what the
	// operator must provide (a client.properties file) to run the command.
	Differs []string `json:"differs"`
}

// ToolConnection is how Kafka's tool reaches the cluster a plan was read from: the
// addresses and client properties offsettui connected with, never a secret.
type ToolConnection struct {
	// Bootstrap is the bootstrap addresses, comma-separated.
	Bootstrap string
	// CommandConfig is the client.properties file offsettui read, absolute ("" when none).
	CommandConfig string
	// InlineContext names the context whose client properties are written inline in the
	// config file ("" when none), InlineKeys their keys: Kafka's tool reads properties only
	// from a file, so the command names ToolPropertiesFile and says what goes in it.
	InlineContext string
	InlineKeys    []string
}

// unknownBootstrap stands for the cluster's address in a plan made without a
// ToolConnection (a plan of the pure planner alone, in tests).
const unknownBootstrap = "BOOTSTRAP"

// EquivalentFile names the CSV file of an Equivalent that needs one.
const EquivalentFile = "offsets.csv"

// ToolPropertiesFile names the client properties file the command reads when the
// context's properties are inline in the config file.
const ToolPropertiesFile = "client.properties"

// noGuards is what every Kafka group tool lacks of offsettui's guards.
const noGuards = "Kafka's tool writes no backup and no audit line, does not re-read the group right before the write, " +
	"does not watch for a client committing from outside the group, and does not read the offsets back"

// KafkaEquivalent returns the Kafka command of p on the cluster conn reaches; nil for a
// type without a Kafka tool, and for a plan without partitions (there is nothing to name).
func KafkaEquivalent(p Plan, conn ToolConnection) *Equivalent {
	tool, ok := map[string]string{model.TypeClassic: "kafka-consumer-groups.sh", model.TypeConsumer: "kafka-consumer-groups.sh",
		model.TypeShare: shareToolName, model.TypeStreams: streamsToolName}[p.Type]
	if !ok || len(p.Rows) == 0 {
		return nil
	}
	e := &Equivalent{Differs: []string{noGuards}}
	args := append([]string{tool}, connectionArgs(e, conn)...)
	if p.Strategy.Kind == DeleteOffsets || p.Strategy.Kind == DeleteGroup {
		deleteEquivalent(e, p, args)
		return e
	}
	args = append(args, "--reset-offsets", "--group", ShellWord(p.Group))
	switch k := p.Strategy.Kind; k {
	case FromGroup, Restore:
		args = append(args, "--from-file", EquivalentFile)
		fileEquivalent(e, p)
	case FromFile:
		args = append(args, "--from-file", ShellWord(p.Strategy.Raw))
	default:
		args = append(args, k.Flag())
		if k.TakesValue() {
			v, _ := kafkaValue(p.Strategy)
			args = append(args, ShellWord(v))
		}
		args = append(args, topicArgs(p, false)...)
		if k == ByDuration {
			e.Differs = append(e.Differs, byDurationDiffers(p.Strategy)...)
		}
	}
	args = slices.Clip(streamsScope(p.Type, args))
	e.Command = strings.Join(append(args, "--execute"), " ")
	e.DryRunCommand = model.Ptr(strings.Join(append(args, "--dry-run"), " "))
	return e
}

// connectionArgs are the --bootstrap-server and --command-config of conn; what the
// operator must write for them goes into e's differences.
func connectionArgs(e *Equivalent, conn ToolConnection) []string {
	addr := conn.Bootstrap
	if addr == "" {
		addr = unknownBootstrap
	}
	args := []string{"--bootstrap-server", ShellWord(addr)}
	switch {
	case conn.InlineContext != "":
		args = append(args, "--command-config", ToolPropertiesFile)
		from := ""
		if conn.CommandConfig != "" {
			from = fmt.Sprintf("the lines of %s, then ", conn.CommandConfig)
		}
		e.Differs = append(e.Differs, fmt.Sprintf("Kafka's tool reads client properties only from a file: write into %s %scontext %s's inline properties (%s), which win",
			ToolPropertiesFile, from, conn.InlineContext, strings.Join(conn.InlineKeys, ", ")))
	case conn.CommandConfig != "":
		args = append(args, "--command-config", ShellWord(conn.CommandConfig))
	}
	return args
}

// fileEquivalent fills e's CSV with the targets of a from-group or restore plan, and says
// where --from-file would do otherwise.
func fileEquivalent(e *Equivalent, p Plan) {
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
	if p.Strategy.Kind == Restore {
		e.Differs = append(e.Differs, "Kafka's tool clamps the file's offsets to [low, high]; a restore puts them back exactly")
	} else {
		e.Differs = append(e.Differs, fmt.Sprintf("the file holds %s's commits as planned, clamped; Kafka's tool has no --from-group", p.Strategy.Raw))
	}
	if deletes > 0 {
		e.Differs = append(e.Differs, fmt.Sprintf("%d partitions had no commit before: --from-file cannot delete a commit; run --delete-offsets for them", deletes))
	}
}

// byDurationDiffers says that Kafka's tool counts the duration back from when it runs, and
// names the plan's own point in time.
func byDurationDiffers(st Strategy) []string {
	v, ok := kafkaValue(st)
	if !ok || st.Time.IsZero() {
		return nil
	}
	return []string{fmt.Sprintf("Kafka's tool counts %s back from when it runs, this plan from when it was made: its targets are those of --to-datetime %s",
		v, KafkaDatetime(st.Time))}
}

// deleteEquivalent fills e with the --delete-offsets or --delete command of p, whose tool
// and connection are args.
func deleteEquivalent(e *Equivalent, p Plan, args []string) {
	if p.Strategy.Kind == DeleteGroup {
		e.Command = strings.Join(append(args, "--delete", "--group", ShellWord(p.Group)), " ")
		e.Differs = append(e.Differs, "Kafka's tool has no dry run of --delete: it ignores --dry-run and deletes the group; this plan is the dry run")
		if p.Type == model.TypeStreams {
			e.Differs = append(e.Differs, "kafka-streams-groups.sh --delete --delete-all-internal-topics also deletes the application's internal topics; offsettui deletes none")
		}
		return
	}
	args = append(args, "--delete-offsets", "--group", ShellWord(p.Group))
	args = append(args, topicArgs(p, p.Type == model.TypeShare)...)
	e.Command = strings.Join(streamsScope(p.Type, args), " ")
	e.Differs = append(e.Differs, "Kafka's tool has no dry run of --delete-offsets: it ignores --dry-run and deletes; this plan is the dry run")
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
