package clientconfig

import (
	"errors"
	"fmt"
	"strings"
)

// jaasEntry is the one login module of a client's sasl.jaas.config.
type jaasEntry struct {
	module  string            // the login module class, e.g. org.apache...PlainLoginModule
	options map[string]string // option name → value
}

// moduleName is the class name without its package, so that shaded copies
// (kafkashaded.org.apache.kafka...) are recognised too.
func (e jaasEntry) moduleName() string {
	return e.module[strings.LastIndexByte(e.module, '.')+1:]
}

// parseJAAS reads a sasl.jaas.config value as Kafka's JaasConfig does, e.g.
//
//	org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";
//
// It tokenizes like java.io.StreamTokenizer as Kafka sets it up: // and /* */ comments and a
// lone / start comments; values are quoted with " or ' (StreamTokenizer's escapes) or are
// words (a letter, _, $ or a non-ASCII character first, then also digits, '.' and '-'); a
// value starting with a digit is a number, which Kafka refuses. Every entry must end with ';'
// and a client takes exactly one login module. Errors give character positions, never any
// text of the value (it holds passwords).
func parseJAAS(s string) (jaasEntry, error) {
	tz := &jaasTokenizer{s: s}
	var entries []jaasEntry
	for {
		t := tz.next()
		if t.kind == tokEOF {
			break
		}
		e, err := parseJAASEntry(tz, t)
		if err != nil {
			return jaasEntry{}, err
		}
		entries = append(entries, e)
	}
	switch len(entries) {
	case 0:
		return jaasEntry{}, errors.New("names no login module")
	case 1:
		return entries[0], nil
	}
	return jaasEntry{}, fmt.Errorf("has %d login modules; a Kafka client uses exactly one", len(entries))
}

// parseJAASEntry reads one `module flag (name=value)* ;` entry whose first token is first.
func parseJAASEntry(tz *jaasTokenizer, first jaasToken) (jaasEntry, error) {
	if !first.isString() || first.text == "" {
		return jaasEntry{}, fmt.Errorf("expected a login module class name at character %d", first.pos)
	}
	flag := tz.next()
	switch {
	case flag.kind == tokEOF:
		return jaasEntry{}, errors.New("the login module has no control flag (required)")
	case !flag.isString() || !isControlFlag(flag.text):
		return jaasEntry{}, fmt.Errorf("expected a control flag (required) at character %d", flag.pos)
	}
	e := jaasEntry{module: first.text, options: map[string]string{}}
	for {
		name := tz.next()
		if name.kind == tokEOF {
			return jaasEntry{}, errors.New("the entry is not terminated by ';' (Kafka requires it)")
		}
		if name.kind == ';' {
			return e, nil
		}
		eq := tz.next()
		value := tz.next()
		if eq.kind != '=' || !value.isString() {
			return jaasEntry{}, fmt.Errorf("expected name=value for the option at character %d "+
				"(quote values that do not start with a letter)", name.pos)
		}
		if name.isString() {
			e.options[name.text] = value.text
		}
	}
}

func isControlFlag(w string) bool {
	switch strings.ToLower(w) {
	case "required", "requisite", "sufficient", "optional":
		return true
	}
	return false
}

// Token kinds besides ordinary characters ('=', ';', ...), which are their own kind.
const (
	tokEOF    = -1
	tokWord   = -2
	tokNumber = -3
	tokQuoted = -4
)

// jaasToken is one token; pos counts bytes from 1.
type jaasToken struct {
	kind int
	text string // words and quoted strings
	pos  int
}

// isString reports whether the token has a string value (StreamTokenizer's sval != null).
func (t jaasToken) isString() bool { return t.kind == tokWord || t.kind == tokQuoted }

// jaasTokenizer follows java.io.StreamTokenizer with Kafka's JaasConfig settings.
type jaasTokenizer struct {
	s string
	i int
}

func isJAASDigit(c byte) bool { return c >= '0' && c <= '9' || c == '.' || c == '-' }

// isJAASAlpha: StreamTokenizer's word characters plus the ones JaasConfig adds (-, _, $).
// Bytes of multi-byte UTF-8 characters are all >= 0x80; StreamTokenizer counts 0xA0-0xFF
// and every character above 0xFF as alphabetic, so such characters are words.
func isJAASAlpha(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c == '-' || c >= 0x80
}

func (z *jaasTokenizer) next() jaasToken {
	for z.i < len(z.s) {
		c, pos := z.s[z.i], z.i+1
		switch {
		case c <= ' ':
			z.i++
		case c == '/' && strings.HasPrefix(z.s[z.i:], "/*"):
			end := strings.Index(z.s[z.i+2:], "*/")
			if end < 0 {
				z.i = len(z.s)
			} else {
				z.i += 2 + end + 2
			}
		case c == '/': // "//" and a lone "/" (StreamTokenizer's comment character) run to the line end
			for z.i < len(z.s) && z.s[z.i] != '\n' && z.s[z.i] != '\r' {
				z.i++
			}
		case c == '-' && (z.i+1 >= len(z.s) || !isJAASDigit(z.s[z.i+1]) || z.s[z.i+1] == '-'):
			z.i++ // a '-' not followed by a digit or '.' is an ordinary character
			return jaasToken{kind: '-', pos: pos}
		case isJAASDigit(c): // digits are checked before letters, as in StreamTokenizer
			z.i++
			dot := c == '.'
			for ; z.i < len(z.s) && (z.s[z.i] >= '0' && z.s[z.i] <= '9' || z.s[z.i] == '.' && !dot); z.i++ {
				dot = dot || z.s[z.i] == '.'
			}
			return jaasToken{kind: tokNumber, pos: pos}
		case isJAASAlpha(c):
			j := z.i
			for z.i < len(z.s) && (isJAASAlpha(z.s[z.i]) || isJAASDigit(z.s[z.i])) {
				z.i++
			}
			return jaasToken{kind: tokWord, text: z.s[j:z.i], pos: pos}
		case c == '"' || c == '\'':
			text, n := jaasQuoted(z.s[z.i:])
			z.i += n
			return jaasToken{kind: tokQuoted, text: text, pos: pos}
		default:
			z.i++
			return jaasToken{kind: int(c), pos: pos}
		}
	}
	return jaasToken{kind: tokEOF, pos: len(z.s) + 1}
}

// jaasQuoted reads a quoted string at the start of s (s[0] is the quote) with
// StreamTokenizer's escapes: \a \b \f \n \r \t \v, octal \ooo, and \x for any other x. As in
// StreamTokenizer, a line end or the end of the input also ends the string. It returns the
// text and the number of bytes consumed.
func jaasQuoted(s string) (string, int) {
	q := s[0]
	var b strings.Builder
	i := 1
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1
		case c == '\n' || c == '\r':
			return b.String(), i
		case c != '\\' || i+1 == len(s):
			b.WriteByte(c)
			continue
		}
		i++
		if o := s[i]; '0' <= o && o <= '7' {
			v, max := int(o-'0'), 2
			if o > '3' {
				max = 1
			}
			for ; max > 0 && i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '7'; max-- {
				i++
				v = v*8 + int(s[i]-'0')
			}
			b.WriteRune(rune(v))
			continue
		}
		if k := strings.IndexByte("abfnrtv", s[i]); k >= 0 {
			b.WriteByte("\a\b\f\n\r\t\v"[k])
		} else {
			b.WriteByte(s[i])
		}
	}
	return b.String(), i
}
