package kafka

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/IBM/sarama"
)

// maxPropertiesSize bounds what ParseProperties reads: a client.properties file is a few
// kilobytes, so anything larger is the wrong file (or /dev/zero), not a config.
const maxPropertiesSize = 1 << 20

// ParseProperties reads a Java .properties file the way java.util.Properties.load does, which
// is how Kafka's CLI tools read --command-config: `key=value`, `key: value` and `key value`
// lines, `#` and `!` comments, backslash line continuation (the continued line's leading
// whitespace dropped), and the escapes \t \n \r \f \uXXXX (any other escaped character stands
// for itself, so `\=`, `\:`, `\ ` and `\\` work). A later duplicate key wins. Values are kept
// as written, trailing whitespace included; ApplyProperties trims them as Kafka does.
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
	text := string(data)
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

// RedactedProperties returns a copy of props safe for a debug log: the value of every key
// that may hold a secret (see isSecretKey) is replaced by "[redacted]" unless it is empty.
func RedactedProperties(props map[string]string) map[string]string {
	out := maps.Clone(props)
	for k, v := range out {
		if isSecretKey(k) && v != "" {
			out[k] = "[redacted]"
		}
	}
	return out
}

// isSecretKey reports whether a property's value must never be shown: passwords, JAAS
// configs (they embed passwords), private keys and anything named like a secret or token.
// It errs on the side of hiding (ssl.keystore.location is hidden too).
func isSecretKey(key string) bool {
	k := strings.ToLower(key)
	for _, w := range []string{"password", "jaas", "secret", "key", "token", "credential"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
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

// ApplyProperties applies the client properties offsettui supports to cfg: security.protocol,
// sasl.mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), sasl.jaas.config (Plain or Scram login
// module), the PEM forms of the ssl.truststore.* and ssl.keystore.* properties,
// ssl.endpoint.identification.algorithm and client.id. Values are trimmed first, as Kafka's
// ConfigDef does.
//
// ignored lists, sorted, the keys that had no effect: unknown ones and those that do not apply
// to the chosen security.protocol (ssl.* under SASL_PLAINTEXT). Kafka's tools warn about such
// keys; the caller should log them. On error cfg may be partly changed and should be dropped;
// the error is a *PropertyError and never contains a secret.
func ApplyProperties(cfg *sarama.Config, props map[string]string) (ignored []string, err error) {
	p := &propReader{props: props, used: make(map[string]bool)}
	if id := p.get("client.id"); id != "" {
		cfg.ClientID = id
	}
	protocol := strings.ToUpper(p.get("security.protocol"))
	switch protocol {
	case "", "PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL":
	default:
		return nil, propErr("security.protocol", "invalid value %s; use PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL",
			shown("security.protocol", p.get("security.protocol")))
	}
	if protocol == "SSL" || protocol == "SASL_SSL" {
		tc, err := tlsConfig(p)
		if err != nil {
			return nil, err
		}
		cfg.Net.TLS.Enable = true
		cfg.Net.TLS.Config = tc
	}
	if strings.HasPrefix(protocol, "SASL_") {
		if err := applySASL(cfg, p); err != nil {
			return nil, err
		}
	}
	for k := range props {
		if !p.used[k] {
			ignored = append(ignored, k)
		}
	}
	slices.Sort(ignored)
	return ignored, nil
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

// maxStoreSize bounds a truststore or keystore file read: a CA bundle is a few hundred kB.
const maxStoreSize = 16 << 20

// tlsConfig builds the TLS config for SSL and SASL_SSL from the PEM forms of Kafka's ssl.*
// properties. Without a truststore the system roots are used, as the JVM uses its cacerts.
func tlsConfig(p *propReader) (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	roots, err := trustRoots(p)
	if err != nil {
		return nil, err
	}
	tc.RootCAs = roots
	cert, ok, err := clientCertificate(p)
	if err != nil {
		return nil, err
	}
	if ok {
		tc.Certificates = []tls.Certificate{cert}
	}
	const algKey = "ssl.endpoint.identification.algorithm"
	switch alg := p.get(algKey); {
	case !p.has(algKey) || strings.EqualFold(alg, "https"):
	case alg == "":
		// Kafka's way to skip the hostname check. The chain is still verified: Go can only
		// skip both at once, so verifyChain redoes the chain check without the hostname.
		tc.InsecureSkipVerify = true
		tc.VerifyConnection = verifyChain(roots)
	default:
		return nil, propErr(algKey, "unsupported value %s; use https (the default) or an empty value to skip the hostname check", shown(algKey, alg))
	}
	return tc, nil
}

// verifyChain checks the broker's certificate chain against roots (nil: the system roots)
// without checking the hostname, for ssl.endpoint.identification.algorithm= (empty).
func verifyChain(roots *x509.CertPool) func(tls.ConnectionState) error {
	return func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errors.New("tls: the broker presented no certificate")
		}
		inter := x509.NewCertPool()
		for _, c := range cs.PeerCertificates[1:] {
			inter.AddCert(c)
		}
		_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
		return err
	}
}

// trustRoots returns the CA pool from ssl.truststore.location or ssl.truststore.certificates,
// or nil when neither is set.
func trustRoots(p *propReader) (*x509.CertPool, error) {
	if err := checkStoreType(p, "ssl.truststore.type", "truststore"); err != nil {
		return nil, err
	}
	key, data, err := storeData(p, "ssl.truststore.location", "ssl.truststore.certificates")
	if data == nil || err != nil {
		return nil, err
	}
	blocks, err := pemBlocks(data)
	if err != nil {
		return nil, propErr(key, "%v", err)
	}
	pool := x509.NewCertPool()
	n := 0
	for _, b := range blocks {
		if b.label != "CERTIFICATE" || b.encrypted {
			continue
		}
		c, err := x509.ParseCertificate(b.der)
		if err != nil {
			return nil, propErr(key, "certificate %d: %v", n+1, err)
		}
		pool.AddCert(c)
		n++
	}
	if n == 0 {
		return nil, propErr(key, "%s", notPEM(data, "truststore", "certificate (-----BEGIN CERTIFICATE-----)"))
	}
	return pool, nil
}

// clientCertificate returns the client certificate for mTLS from ssl.keystore.location (key and
// chain in one PEM file) or ssl.keystore.certificate.chain with ssl.keystore.key; ok is false
// when none is set. ssl.key.password is never read, so it is reported as ignored.
func clientCertificate(p *propReader) (cert tls.Certificate, ok bool, err error) {
	const locKey, chainKey, keyKey = "ssl.keystore.location", "ssl.keystore.certificate.chain", "ssl.keystore.key"
	if err := checkStoreType(p, "ssl.keystore.type", "keystore"); err != nil {
		return cert, false, err
	}
	certFrom, certData, err := storeData(p, locKey, "")
	if err != nil {
		return cert, false, err
	}
	keyFrom, keyData := certFrom, certData
	switch chain, key := p.get(chainKey), p.get(keyKey); {
	case chain == "" && key == "" && certData == nil:
		return cert, false, nil
	case (chain != "" || key != "") && certData != nil:
		return cert, false, propErr(locKey, "set either %s or %s with %s, not both", locKey, chainKey, keyKey)
	case certData == nil && (chain == "" || key == ""):
		return cert, false, propErr(chainKey, "%s and %s must be set together", chainKey, keyKey)
	case certData == nil:
		certFrom, certData, keyFrom, keyData = chainKey, []byte(chain), keyKey, []byte(key)
	}
	certPEM, _, err := selectPEM(certFrom, certData, func(l string) bool { return l == "CERTIFICATE" })
	if err != nil {
		return cert, false, err
	}
	keyPEM, encrypted, err := selectPEM(keyFrom, keyData, func(l string) bool { return strings.HasSuffix(l, "PRIVATE KEY") })
	if err != nil {
		return cert, false, err
	}
	switch {
	case len(certPEM) == 0:
		return cert, false, propErr(certFrom, "%s", notPEM(certData, "keystore", "certificate (-----BEGIN CERTIFICATE-----)"))
	case len(keyPEM) == 0 && encrypted:
		return cert, false, propErr(keyFrom, "encrypted private keys (ssl.key.password) are not supported; "+
			"decrypt the key with `openssl pkey -in key.pem -out key-decrypted.pem` and keep that file private")
	case len(keyPEM) == 0:
		return cert, false, propErr(keyFrom, "%s", notPEM(keyData, "keystore", "private key (-----BEGIN PRIVATE KEY-----)"))
	}
	cert, err = tls.X509KeyPair(certPEM, keyPEM)
	if err != nil { // the standard library's messages here are fixed strings, never key material
		return cert, false, propErr(keyFrom, "%v", err)
	}
	return cert, true, nil
}

// selectPEM decodes data and re-encodes, as standard PEM, the unencrypted blocks whose label
// passes keep; encrypted reports whether a matching block was skipped for being encrypted.
func selectPEM(from string, data []byte, keep func(string) bool) (out []byte, encrypted bool, err error) {
	blocks, err := pemBlocks(data)
	if err != nil {
		return nil, false, propErr(from, "%v", err)
	}
	for _, b := range blocks {
		switch {
		case !keep(b.label):
		case b.encrypted:
			encrypted = true
		default:
			out = append(out, pem.EncodeToMemory(&pem.Block{Type: b.label, Bytes: b.der})...)
		}
	}
	return out, encrypted, nil
}

// checkStoreType rejects store types other than PEM. An unset type is allowed (Kafka would
// assume JKS; the content is checked to be PEM instead).
func checkStoreType(p *propReader, key, what string) error {
	switch t := p.get(key); strings.ToUpper(t) {
	case "", "PEM":
		return nil
	case "JKS", "PKCS12":
		return propErr(key, "JKS and PKCS12 %ss are not supported; convert the store to PEM (%s) and set %s=PEM", what, convertHint(what), key)
	default:
		return propErr(key, "unsupported store type %s; only PEM is supported", shown(key, t))
	}
}

func convertHint(what string) string {
	if what == "truststore" {
		return "keytool -exportcert -rfc -keystore truststore.jks -alias CARoot -file ca.pem"
	}
	return "keytool -importkeystore -srckeystore keystore.jks -destkeystore keystore.p12 -deststoretype PKCS12, " +
		"then openssl pkcs12 -in keystore.p12 -nodes -out keystore.pem"
}

// notPEM explains why data yielded no PEM block of the kind wanted, recognising JKS stores and
// binary (PKCS12 or DER) files.
func notPEM(data []byte, what, wanted string) string {
	switch {
	case len(data) >= 4 && (string(data[:4]) == "\xfe\xed\xfe\xed" || string(data[:4]) == "\xce\xce\xce\xce"):
		return fmt.Sprintf("the file is a JKS store, not PEM; convert it (%s)", convertHint(what))
	case !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0:
		return fmt.Sprintf("the file is binary (PKCS12 or DER), not PEM; convert it (%s)", convertHint(what))
	}
	return "no PEM " + wanted + " found"
}

// storeData returns the content of the file named by locKey, or else the inline PEM of
// inlineKey (if not ""), and which key it came from; data is nil when neither is set.
func storeData(p *propReader, locKey, inlineKey string) (string, []byte, error) {
	loc, inline := p.get(locKey), ""
	if inlineKey != "" {
		inline = p.get(inlineKey)
	}
	switch {
	case loc != "" && inline != "":
		return locKey, nil, propErr(locKey, "set either %s or %s, not both", locKey, inlineKey)
	case inline != "":
		return inlineKey, []byte(inline), nil
	case loc == "":
		return "", nil, nil
	}
	data, err := readLimited(loc, maxStoreSize)
	if err == nil {
		return locKey, data, nil
	}
	if isSecretKey(locKey) { // even the path is hidden: keep only the reason
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return locKey, nil, propErr(locKey, "cannot read the file: %v", err)
	}
	return locKey, nil, propErr(locKey, "%v", err)
}

func readLimited(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("larger than %d bytes", limit)}
	}
	return data, err
}

// pemBlock is one PEM block; der is nil when encrypted.
type pemBlock struct {
	label     string
	der       []byte
	encrypted bool
}

// pemBlocks decodes PEM leniently, as Kafka's PEM store does: inline PEM written with line
// continuations arrives on one line, so whitespace anywhere in the base64 body is allowed.
// Blocks labelled ENCRYPTED PRIVATE KEY, or with headers (legacy OpenSSL encryption), are
// marked encrypted. Errors never contain any of the input.
func pemBlocks(data []byte) ([]pemBlock, error) {
	const begin, dashes = "-----BEGIN ", "-----"
	s := string(data)
	var out []pemBlock
	for {
		i := strings.Index(s, begin)
		if i < 0 {
			return out, nil
		}
		s = s[i+len(begin):]
		j := strings.Index(s, dashes)
		if j < 0 || j > 64 {
			return nil, errors.New("malformed PEM: a BEGIN line is not closed by -----")
		}
		label, end := s[:j], "-----END "+s[:j]+dashes
		s = s[j+len(dashes):]
		k := strings.Index(s, end)
		if k < 0 {
			return nil, errors.New("malformed PEM: a block has no matching END line")
		}
		body := s[:k]
		s = s[k+len(end):]
		if label == "ENCRYPTED PRIVATE KEY" || strings.Contains(body, ":") {
			out = append(out, pemBlock{label: strings.TrimPrefix(label, "ENCRYPTED "), encrypted: true})
			continue
		}
		der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(body), ""))
		if err != nil {
			return nil, errors.New("malformed PEM: a block's body is not valid base64")
		}
		out = append(out, pemBlock{label: label, der: der})
	}
}
