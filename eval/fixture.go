package eval

import (
	_ "embed"
	"fmt"
)

// fixtureJSON is the project's own labeled corpus, embedded so that the
// command line evaluates it from any directory.
//
//go:embed testdata/fixture.json
var fixtureJSON []byte

// FixtureName is the file the fixture is kept in, relative to the module
// root; reports name it as the default corpus.
const FixtureName = "eval/testdata/fixture.json"

// Fixture returns a fresh copy of the embedded fixture.
func Fixture() (*Corpus, error) {
	c, err := Parse(fixtureJSON)
	if err != nil {
		return nil, fmt.Errorf("the embedded fixture: %w", err)
	}
	return c, nil
}
