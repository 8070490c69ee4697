package memory

import "context"

// Scan reads the tree once, with a fresh catalog: every topic file is
// read. Hosts that scan more than once keep a Catalog instead.
func Scan(ctx context.Context, roots Roots, opts ...Option) (Result, error) {
	return NewCatalog(roots, opts...).Scan(ctx)
}
