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
	"os"
	"strings"
	"unicode/utf8"
)

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
