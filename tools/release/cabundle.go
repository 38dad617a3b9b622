package release

import (
	"bytes"
	"encoding/pem"

	"golang.org/x/crypto/x509roots/fallback/bundle"
)

// CABundle is the image's /etc/ssl/certs/ca-certificates.crt: Mozilla NSS's
// roots as golang.org/x/crypto/x509roots/fallback ships them, at the version
// tools/go.mod pins (the same bytes on every machine, unlike the build
// machine's own bundle). A root NSS trusts only for certificates issued before
// a date is left out: a PEM file cannot carry that limit.
func CABundle() []byte {
	var b bytes.Buffer
	for r := range bundle.Roots() {
		if r.Constraint != nil {
			continue
		}
		_ = pem.Encode(&b, &pem.Block{Type: "CERTIFICATE", Bytes: r.Certificate})
	}
	return b.Bytes()
}
