// Package eval measures memrecall on a labeled corpus: how well the
// deterministic scorer finds the documents a query needs (quality), and
// whether the recall lifecycle puts them in front of the model in time and
// only once (delivery).
//
// A corpus is a JSON file (spec §7.1) of documents and labeled cases. The
// harness never ranks the JSON directly: it writes every document as a real
// topic file into a temporary memory tree (id = file name, scope = root,
// modified = mtime), runs the real scan on it, then the real noise filter and
// ranking, so a bug anywhere on that path shows up in the numbers.
//
// The typical use:
//
//	c, err := eval.Load("eval/testdata/fixture.json")
//	if err != nil { ... }          // one line naming the problem
//	rep, err := eval.Run(ctx, c, eval.Options{})
//	rep.WriteMarkdown(os.Stdout)
package eval
