package clientconfig

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxPropertiesSize bounds what ParseProperties reads: a client.properties file is a few
// kilobytes, so anything larger is the wrong file (or /dev/zero), not a config.
const maxPropertiesSize = 1 << 20

// ParseProperties reads a Java .properties file the way java.util.Properties.load does, which
// is how Kafka's CLI tools read --command-config: `key=value`, `key: value` and `key value`
// lines, `#` and `!` comments, backslash line continuation (the continued line's leading
// whitespace dropped), and the escapes \t \n \r \f \uXXXX (any other escaped character stands
// for itself, so `\=`, `\:`, `\ ` and `\\` work). A later duplicate key wins. Values are kept
// as written, trailing whitespace included; FromProperties trims them as Kafka does.
//
// Input that is valid UTF-8 is read as UTF-8; anything else is read as ISO-8859-1, as Kafka
// reads every properties file. name is used only in error messages, which give the line
// number and never any part of a value (values may be passwords).
func ParseProperties(r io.Reader, name string) (map[string]string, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPropertiesSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(data) > maxPropertiesSize {
		return nil, fmt.Errorf("%s: larger than %d bytes; is it really a client.properties file?", name, maxPropertiesSize)
	}
	// A UTF-8 byte order mark (Windows editors write one) would otherwise become part of the
	// first key, which Kafka then silently ignores.
	text := strings.TrimPrefix(string(data), "\uFEFF")
	if !utf8.ValidString(text) {
		text = latin1(data)
	}
	lines := splitLines(text)
	props := make(map[string]string)
	for i := 0; i < len(lines); {
		logical, starts, next := joinContinued(lines, i)
		i = next
		if logical == "" {
			continue
		}
		key, value, bad, where := splitProperty(logical)
		if bad >= 0 {
			line := lines[i-1].no
			for _, s := range starts {
				if s.off <= bad {
					line = s.no
				}
			}
			if where == "" {
				return nil, fmt.Errorf("%s:%d: malformed \\uXXXX escape in a key", name, line)
			}
			return nil, fmt.Errorf("%s:%d: malformed \\uXXXX escape in the value of %q", name, line, where)
		}
		props[key] = value
	}
	return props, nil
}

// PropertyError reports a client property that cannot be applied. Key names the property;
// the message never contains the value of a property that may hold a secret.
type PropertyError struct {
	Key string
	Msg string
}

// Error returns "key: message".
func (e *PropertyError) Error() string { return e.Key + ": " + e.Msg }

func propErr(key, format string, args ...any) error {
	return &PropertyError{Key: key, Msg: fmt.Sprintf(format, args...)}
}

// shown renders a value for an error message, or hides it when the key may hold a secret.
func shown(key, value string) string {
	if isSecretKey(key) {
		return "(value hidden)"
	}
	return fmt.Sprintf("%q", value)
}

// propReader reads trimmed property values and remembers which keys were looked at, so that
// the rest can be reported as ignored.
type propReader struct {
	props map[string]string
	used  map[string]bool
}

func (p *propReader) get(key string) string {
	v, ok := p.props[key]
	if ok {
		p.used[key] = true
	}
	return strings.TrimSpace(v)
}

func (p *propReader) has(key string) bool {
	_, ok := p.props[key]
	return ok
}

// naturalLine is one line of the file as terminated by \n, \r\n or \r, numbered from 1.
type naturalLine struct {
	text string
	no   int
}

// lineStart records where a natural line begins inside a logical line, for error positions.
type lineStart struct{ off, no int }

func splitLines(text string) []naturalLine {
	var lines []naturalLine
	for no := 1; text != ""; no++ {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			lines = append(lines, naturalLine{text, no})
			break
		}
		lines = append(lines, naturalLine{text[:i], no})
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i++
		}
		text = text[i+1:]
	}
	return lines
}

func isPropSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

func trimPropSpace(s string) string {
	for s != "" && isPropSpace(s[0]) {
		s = s[1:]
	}
	return s
}

// joinContinued builds the logical line starting at lines[i]; it returns "" for blank and
// comment lines. A comment line is never continued, and a continuation line starting with #
// is not a comment: both as in Properties.load.
func joinContinued(lines []naturalLine, i int) (string, []lineStart, int) {
	s := trimPropSpace(lines[i].text)
	if s == "" || s[0] == '#' || s[0] == '!' {
		return "", nil, i + 1
	}
	var b strings.Builder
	starts := []lineStart{{0, lines[i].no}}
	for i++; ; i++ {
		n := 0
		for n < len(s) && s[len(s)-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			b.WriteString(s)
			return b.String(), starts, i
		}
		b.WriteString(s[:len(s)-1])
		if i >= len(lines) { // a trailing backslash at the end of the file is dropped
			return b.String(), starts, i
		}
		s = trimPropSpace(lines[i].text)
		starts = append(starts, lineStart{b.Len(), lines[i].no})
	}
}

// splitProperty splits a logical line into key and value as Properties.load does. On a
// malformed escape it returns its offset in bad (else -1) and, if the key was fine and the
// value was not, the key in where.
func splitProperty(line string) (key, value string, bad int, where string) {
	end, valStart, hasSep, escaped := len(line), len(line), false, false
	for k := 0; k < len(line); k++ {
		c := line[k]
		if !escaped && (c == '=' || c == ':' || isPropSpace(c)) {
			end, valStart, hasSep = k, k+1, c == '=' || c == ':'
			break
		}
		escaped = c == '\\' && !escaped
	}
	for ; valStart < len(line); valStart++ {
		c := line[valStart]
		if isPropSpace(c) {
			continue
		}
		if hasSep || (c != '=' && c != ':') {
			break
		}
		hasSep = true
	}
	key, bad = unescapeProperty(line[:end])
	if bad >= 0 {
		return "", "", bad, ""
	}
	value, bad = unescapeProperty(line[valStart:])
	if bad >= 0 {
		return "", "", valStart + bad, key
	}
	return key, value, -1, ""
}

// unescapeProperty resolves backslash escapes. \uXXXX escapes are UTF-16 code units, so a
// surrogate pair written as two escapes yields one character; a lone surrogate becomes U+FFFD.
func unescapeProperty(s string) (string, int) {
	if !strings.Contains(s, `\`) {
		return s, -1
	}
	var b strings.Builder
	var high rune // a pending high surrogate from the previous \u escape
	flush := func() {
		if high != 0 {
			b.WriteRune(utf8.RuneError)
			high = 0
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			flush()
			if c != '\\' {
				b.WriteByte(c)
			}
			continue
		}
		i++
		if s[i] != 'u' {
			flush()
			b.WriteByte(unescapeByte(s[i]))
			continue
		}
		var r rune
		if i+5 > len(s) {
			return "", i - 1
		}
		for _, h := range []byte(s[i+1 : i+5]) {
			d := hexDigit(h)
			if d < 0 {
				return "", i - 1
			}
			r = r<<4 | d
		}
		i += 4
		switch {
		case utf16.IsSurrogate(r) && r < 0xDC00:
			flush()
			high = r
		case utf16.IsSurrogate(r) && high != 0:
			b.WriteRune(utf16.DecodeRune(high, r))
			high = 0
		default:
			flush()
			b.WriteRune(r)
		}
	}
	flush()
	return b.String(), -1
}

// unescapeByte maps the letter after a backslash to what it stands for: \t \n \r \f are
// control characters, anything else is itself.
func unescapeByte(c byte) byte {
	switch c {
	case 't':
		return '\t'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 'f':
		return '\f'
	}
	return c
}

func hexDigit(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

func latin1(data []byte) string {
	rs := make([]rune, len(data))
	for i, c := range data {
		rs[i] = rune(c)
	}
	return string(rs)
}
