package plan

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/offsettui/offsettui/internal/model"
)

// CSVRow is one line of an offsets file: the --from-file input of
// kafka-consumer-groups (and its --export output) and offsettui's backups.
type CSVRow struct {
	// Group is set when the file has a leading group column (Kafka's form for
	// several groups); "" otherwise.
	Group     string
	Topic     string
	Partition int32
	// Offset is nil for an empty offset field ("topic,partition,"): the partition
	// had no commit. Only backups (and so --restore) use it.
	Offset *int64
	// Line is the 1-based line the row was read from; 0 for rows not read from a file.
	Line int
}

// TP returns the row's topic partition.
func (r CSVRow) TP() model.TP { return model.TP{Topic: r.Topic, Partition: r.Partition} }

// ParseOffsetsCSV reads an offsets file named name (the name is only used in
// errors). Each line is "topic,partition,offset" or, in every line alike,
// "group,topic,partition,offset"; fields may be quoted as in RFC 4180 (Kafka writes
// them with Jackson's CSV mapper, which quotes a group containing a comma). Blank
// lines are skipped; there is no header line. An empty offset means "no commit".
// Offsets may be negative here: FileStrategy refuses them for --from-file, as
// Kafka's --from-file does, and the planner blocks them on --restore.
//
// Any bad line fails the whole file: the error names the file and line and says what
// is wrong, and no rows are returned. Stricter than Kafka: a partition given twice
// (Kafka keeps the last) and an invalid topic name are errors, and a file without
// rows is an error.
func ParseOffsetsCSV(r io.Reader, name string) ([]CSVRow, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	var rows []CSVRow
	cols := 0
	seen := map[string]int{} // "group\x00topic-partition" → line
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s line %d: %v", name, pe.Line, pe.Err)
			}
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a line of spaces
		}
		if len(rec) != 3 && len(rec) != 4 {
			return nil, fmt.Errorf("%s line %d: %d fields, expected topic,partition,offset or group,topic,partition,offset",
				name, line, len(rec))
		}
		if cols == 0 {
			cols = len(rec)
		} else if len(rec) != cols {
			return nil, fmt.Errorf("%s line %d: %d fields where earlier lines have %d; use one form for the whole file",
				name, line, len(rec), cols)
		}
		row, err := parseCSVRecord(rec)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %v", name, line, err)
		}
		row.Line = line
		key := row.Group + "\x00" + row.TP().String()
		if first, dup := seen[key]; dup {
			return nil, fmt.Errorf("%s line %d: partition %s already given on line %d", name, line, row.TP(), first)
		}
		seen[key] = line
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no offsets; expected lines topic,partition,offset", name)
	}
	return rows, nil
}

func parseCSVRecord(rec []string) (CSVRow, error) {
	var row CSVRow
	if len(rec) == 4 {
		row.Group, rec = rec[0], rec[1:]
		if row.Group == "" {
			return row, fmt.Errorf("empty group")
		}
		if strings.IndexFunc(row.Group, unicode.IsControl) >= 0 {
			return row, fmt.Errorf("group %q contains a control character", row.Group)
		}
	}
	row.Topic = strings.TrimSpace(rec[0])
	if err := ValidTopicName(row.Topic); err != nil {
		return row, err
	}
	ps := strings.TrimSpace(rec[1])
	p, err := strconv.ParseInt(ps, 10, 32)
	if err != nil || p < 0 {
		return row, fmt.Errorf("partition %q is not a partition number (0 or more)", rec[1])
	}
	row.Partition = int32(p)
	if offs := strings.TrimSpace(rec[2]); offs != "" {
		o, err := strconv.ParseInt(offs, 10, 64)
		if err != nil {
			return row, fmt.Errorf("offset %q is not a whole number (leave it empty for no commit)", rec[2])
		}
		row.Offset = &o
	}
	return row, nil
}

// ValidTopicName checks a topic name as Kafka does: 1 to 249 characters from
// [a-zA-Z0-9._-], and not "." or "..".
func ValidTopicName(t string) error {
	switch {
	case t == "":
		return fmt.Errorf("empty topic name")
	case t == "." || t == "..":
		return fmt.Errorf("topic name %q is not allowed", t)
	case len(t) > 249:
		return fmt.Errorf("topic name of %d characters is longer than Kafka's 249", len(t))
	}
	for _, c := range t {
		ok := c == '.' || c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		if !ok {
			return fmt.Errorf("topic name %q has %q; Kafka allows only letters, digits, '.', '_' and '-'", t, c)
		}
	}
	return nil
}

// FormatOffsetsCSV writes rows in the form ParseOffsetsCSV reads: with a leading
// group column when the rows have groups (then all must), a nil offset as an empty
// field, "\n" line ends and no header — the same bytes Kafka's --export writes.
func FormatOffsetsCSV(w io.Writer, rows []CSVRow) error {
	withGroup := len(rows) > 0 && rows[0].Group != ""
	cw := csv.NewWriter(w)
	for _, r := range rows {
		if (r.Group != "") != withGroup {
			return fmt.Errorf("offsets CSV: %s: either every row has a group or none does", r.TP())
		}
		off := ""
		if r.Offset != nil {
			off = strconv.FormatInt(*r.Offset, 10)
		}
		rec := []string{r.Topic, strconv.FormatInt(int64(r.Partition), 10), off}
		if withGroup {
			rec = append([]string{r.Group}, rec...)
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("write offsets CSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write offsets CSV: %w", err)
	}
	return nil
}
