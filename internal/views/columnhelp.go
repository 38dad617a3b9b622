package views

// What `?` says of each column, per table: one line each, in the words of docs/tui.md,
// docs/statuses.md and docs/timeaxis.md, which say the whole rule. A column added to a
// table (groupColumns, partitionColumns, planColumns) needs its line here: TestColumnHelp
// fails on a column without one.

// deadlineMeaning is what LOSS-IN counts down to, and expiresMeaning EXPIRES-IN: one deadline
// per partition (docs/statuses.md, "The deadline"; docs/timeaxis.md, "Time to loss").
const (
	deadlineMeaning = "deadline: now while records are deleted unread; where rates exist (from the second refresh), " +
		"when retention deletes a record the group has not read, at its measured rates; - when it never does"
	expiresMeaning = "when retention may delete the next record the group reads, assuming a stopped consumer; " +
		"muted where the consumer reads it in time (LOSS-IN is the deadline)"
)

// The meanings shared by the tables.
const (
	timeLagMeaning   = "how old the record at the committed offset is: how far behind in time"
	consumeMeaning   = "how fast the committed offset moves, offsets per second (from the second refresh)"
	etaMeaning       = "time until caught up at these rates; never, stalled, stopped, rewound; - when the lag keeps pace (neither grows nor falls) or no rate yet"
	evalMeaning      = "the rates' evaluation: OK, WARN (the lag did not fall), STOPPED or STALLED (the commit stands still, without or with members), REWOUND"
	commitTTLMeaning = "time until the broker may delete the commit (offsets.retention.minutes); due, never, ≤7d when the time it counts from is unknown"
)

// groupsColumnHelp is the groups list's columns.
var groupsColumnHelp = map[string]string{
	"GROUP":      "the group's name, shortened in the middle when long",
	"TYPE":       "classic, consumer, share, streams or unknown",
	"STATE":      "the group's state, as its coordinator says (Stable, Empty, …)",
	"MEMBERS":    "live members; ? when the group could not be described; 0+ext when a client outside it commits for it",
	"TOPICS":     "topics the group has commits on or members assigned to",
	"PARTITIONS": "partitions the group has a row for",
	"LAG":        "records behind, summed over the partitions with a commit; ≥ N a lower bound",
	"TIME-LAG":   "the largest time lag of the group's partitions: " + timeLagMeaning,
	"STATUS":     "how many partitions have each status, worst first (the legend below)",
	"TREND":      "the total lag over this session's refreshes: ↑ growing, ↓ falling",
	"COMMIT-TTL": "the group's first commit: " + commitTTLMeaning,
	"CONSUME":    consumeMeaning + ", summed over the partitions",
	"ETA":        "the slowest partition's ETA: " + etaMeaning,
	"EVAL":       "the worst partition's evaluation: " + evalMeaning,
	"LOSS-IN":    "the soonest partition's " + deadlineMeaning,
}

// partitionColumnHelp is a group's partitions table.
var partitionColumnHelp = map[string]string{
	"TOPIC":      "the topic",
	"P":          "the partition",
	"LOW":        "the low watermark: the oldest offset still stored",
	"COMMITTED":  "the group's committed offset: where its consumers start reading",
	"START":      "the share group's start offset: where its consumers start reading",
	"HIGH":       "the high watermark: the offset of the next record written",
	"LAG":        "records behind: HIGH − COMMITTED",
	"TIME-LAG":   timeLagMeaning,
	"EXPIRES-IN": expiresMeaning,
	"LOSS-IN":    "the partition's " + deadlineMeaning,
	"STATUS":     "the partition's status (the legend below)",
	"POSITION":   "where COMMITTED lies between LOW and HIGH",
	"CONSUMER":   "the member assigned the partition, by client id",
	"COMMIT-TTL": commitTTLMeaning,
	"CONSUME":    consumeMeaning,
	"ETA":        etaMeaning,
	"EVAL":       evalMeaning,
	"TREND":      "the partition's lag over the samples kept",
}

// planColumnHelp is a plan's rows.
var planColumnHelp = map[string]string{
	"TOPIC":       "the topic",
	"P":           "the partition",
	"LOW":         "the low watermark: the oldest offset still stored",
	"COMMITTED":   "the committed offset now (- none)",
	"START":       "the share group's start offset now (- none)",
	"→":           "becomes",
	"TARGET":      "the offset the plan commits; (delete) removes the commit",
	"RESULT":      "what the execution did to the row: written (deleted), rejected, changed-since, unknown, untouched, overwritten",
	"HIGH":        "the high watermark: the offset of the next record written",
	"REASON":      "why this target: as-requested, clamped-to-low, clamped-to-high, no-commit-to-latest, delete, …",
	"EFFECT":      "what the consumers then do: re-read records, SKIP records, or records already lost",
	"TARGET-TIME": "how old the record at the target is",
}

// columnNote is one column of a screen's table with its meaning, as `?` lists it.
type columnNote struct{ title, meaning string }

// columnNotes pairs the titles of a table's columns with their meanings in help, in order,
// once each; a column without a title (the mark, the hidden-columns marker) is skipped.
func columnNotes(cols []column, help map[string]string) []columnNote {
	var out []columnNote
	seen := map[string]bool{}
	for _, c := range cols {
		if c.title == "" || seen[c.title] {
			continue
		}
		seen[c.title] = true
		out = append(out, columnNote{title: c.title, meaning: help[c.title]})
	}
	return out
}
