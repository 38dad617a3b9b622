package serve

import (
	_ "embed" // the OpenAPI document
	"net/http"
)

// openAPI describes the read API (docs/api.md): every answer's fields and their types.
// Every field of every document is required and no other is allowed, so that the test
// that validates the answers against it (TestAPIAnswersMatchTheSchema, api_demo_test.go) fails when a field is added
// to docs/json.md's documents and not here.
//
//go:embed openapi.json
var openAPI []byte

func apiOpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openAPI)
}
