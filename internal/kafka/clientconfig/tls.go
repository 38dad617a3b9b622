package clientconfig

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
	certs, err := clientCertificates(p)
	if err != nil {
		return nil, err
	}
	tc.Certificates = certs
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

// trustRoots returns the CA pool from ssl.truststore.location (PEM, JKS or PKCS12) or
// ssl.truststore.certificates (PEM), or nil when neither is set.
func trustRoots(p *propReader) (*x509.CertPool, error) {
	const typeKey, locKey = "ssl.truststore.type", "ssl.truststore.location"
	typ, err := storeType(p, typeKey)
	if err != nil {
		return nil, err
	}
	key, data, err := storeData(p, locKey, "ssl.truststore.certificates")
	if data == nil || err != nil {
		return nil, err
	}
	format := formatPEM
	if key == locKey {
		if format, err = storeFormat(typeKey, typ, data); err != nil {
			return nil, err
		}
	}
	pool := x509.NewCertPool()
	if format != formatPEM {
		certs, err := binaryTrust(format, data, p.get("ssl.truststore.password"))
		if err != nil {
			return nil, propErr(locKey, "%s truststore: %v", format, err)
		}
		if len(certs) == 0 {
			return nil, propErr(locKey, "%s truststore holds no certificate", format)
		}
		for _, c := range certs {
			pool.AddCert(c)
		}
		return pool, nil
	}
	blocks, err := pemBlocks(data)
	if err != nil {
		return nil, propErr(key, "%v", err)
	}
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

// clientCertificates returns the client certificates for mTLS from ssl.keystore.location
// (a JKS or PKCS12 store, or key and chain in one PEM file) or ssl.keystore.certificate.chain
// with ssl.keystore.key (PEM).
func clientCertificates(p *propReader) ([]tls.Certificate, error) {
	const typeKey, locKey = "ssl.keystore.type", "ssl.keystore.location"
	typ, err := storeType(p, typeKey)
	if err != nil {
		return nil, err
	}
	_, data, err := storeData(p, locKey, "")
	if data == nil || err != nil {
		return pemClientCertificate(p, nil, err)
	}
	format, err := storeFormat(typeKey, typ, data)
	if err != nil || format == formatPEM {
		return pemClientCertificate(p, data, err)
	}
	if p.get("ssl.keystore.certificate.chain") != "" || p.get("ssl.keystore.key") != "" {
		return nil, propErr(locKey, "set either %s or ssl.keystore.certificate.chain with ssl.keystore.key, not both", locKey)
	}
	pass := p.get("ssl.keystore.password")
	if pass == "" {
		return nil, propErr("ssl.keystore.password", "is required for a %s keystore", format)
	}
	certs, err := binaryKeyPairs(format, data, pass, p.get("ssl.key.password"))
	if err != nil {
		return nil, propErr(locKey, "%s keystore: %v", format, err)
	}
	if len(certs) == 0 {
		return nil, propErr(locKey, "%s keystore holds no private key entry", format)
	}
	return certs, nil
}

// pemClientCertificate returns the client certificate from a PEM keystore file (its content
// in certData) or from ssl.keystore.certificate.chain with ssl.keystore.key; none when
// nothing is set. ssl.key.password is not read for PEM, so it is reported as ignored.
func pemClientCertificate(p *propReader, certData []byte, err error) ([]tls.Certificate, error) {
	const locKey, chainKey, keyKey = "ssl.keystore.location", "ssl.keystore.certificate.chain", "ssl.keystore.key"
	if err != nil {
		return nil, err
	}
	var cert tls.Certificate
	certFrom := locKey
	keyFrom, keyData := certFrom, certData
	switch chain, key := p.get(chainKey), p.get(keyKey); {
	case chain == "" && key == "" && certData == nil:
		return nil, nil
	case (chain != "" || key != "") && certData != nil:
		return nil, propErr(locKey, "set either %s or %s with %s, not both", locKey, chainKey, keyKey)
	case certData == nil && (chain == "" || key == ""):
		return nil, propErr(chainKey, "%s and %s must be set together", chainKey, keyKey)
	case certData == nil:
		certFrom, certData, keyFrom, keyData = chainKey, []byte(chain), keyKey, []byte(key)
	}
	certPEM, _, err := selectPEM(certFrom, certData, func(l string) bool { return l == "CERTIFICATE" })
	if err != nil {
		return nil, err
	}
	keyPEM, encrypted, err := selectPEM(keyFrom, keyData, func(l string) bool { return strings.HasSuffix(l, "PRIVATE KEY") })
	if err != nil {
		return nil, err
	}
	switch {
	case len(certPEM) == 0:
		return nil, propErr(certFrom, "%s", notPEM(certData, "keystore", "certificate (-----BEGIN CERTIFICATE-----)"))
	case len(keyPEM) == 0 && encrypted:
		return nil, propErr(keyFrom, "encrypted private keys (ssl.key.password) are not supported; "+
			"decrypt the key with `openssl pkey -in key.pem -out key-decrypted.pem` and keep that file private")
	case len(keyPEM) == 0:
		return nil, propErr(keyFrom, "%s", notPEM(keyData, "keystore", "private key (-----BEGIN PRIVATE KEY-----)"))
	}
	cert, err = tls.X509KeyPair(certPEM, keyPEM)
	if err != nil { // the standard library's messages here are fixed strings, never key material
		return nil, propErr(keyFrom, "%v", err)
	}
	return []tls.Certificate{cert}, nil
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

// storeType reads a store type property: PEM, JKS, PKCS12 or unset (the content decides).
func storeType(p *propReader, key string) (string, error) {
	t := strings.ToUpper(p.get(key))
	switch t {
	case "", formatPEM, formatJKS, formatPKCS12:
		return t, nil
	}
	return "", propErr(key, "unsupported store type %s; use PEM, JKS or PKCS12", shown(key, t))
}

func convertHint(what string) string {
	if what == "truststore" {
		return "or set ssl.truststore.location to a JKS or PKCS12 file"
	}
	return "or set ssl.keystore.location to a JKS or PKCS12 file"
}

// notPEM explains why data yielded no PEM block of the kind wanted, recognising JKS stores and
// binary (PKCS12 or DER) files.
func notPEM(data []byte, what, wanted string) string {
	switch {
	case len(data) >= 4 && (string(data[:4]) == "\xfe\xed\xfe\xed" || string(data[:4]) == "\xce\xce\xce\xce"):
		return fmt.Sprintf("the file is a JKS store, not PEM (%s)", convertHint(what))
	case !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0:
		return fmt.Sprintf("the file is binary (PKCS12 or DER), not PEM (%s)", convertHint(what))
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
