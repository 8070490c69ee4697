package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/memrecall/memrecall/eval"
)

const evalUsage = `usage: memrecall eval [--corpus FILE] [--json] [--no-delivery]

Evaluates recall quality (the shipped scorer beside the legacy one, per
slice) and delivery (the engine beside a zero-wait host, per selector
latency and turn kind) on a labeled corpus (spec §7.1), by default the
project's fixture (` + eval.FixtureName + `).

flags:
`

// runEval implements "memrecall eval".
func runEval(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("memrecall eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, evalUsage)
		fs.PrintDefaults()
	}
	corpus := fs.String("corpus", "", "labeled corpus `FILE` (JSON); default: the embedded fixture")
	asJSON := fs.Bool("json", false, "print one JSON object instead of Markdown tables")
	noDelivery := fs.Bool("no-delivery", false, "skip the delivery evaluation")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}

	var (
		c   *eval.Corpus
		err error
	)
	if *corpus == "" {
		c, err = eval.Fixture()
	} else {
		c, err = eval.Load(*corpus)
	}
	if err != nil {
		fmt.Fprintf(stderr, "memrecall eval: %v\n", err)
		return 1
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := eval.Run(ctx, c, eval.Options{SkipDelivery: *noDelivery})
	if err != nil {
		fmt.Fprintf(stderr, "memrecall eval: %v\n", err)
		return 1
	}
	if *asJSON {
		err = rep.WriteJSON(stdout)
	} else {
		err = rep.WriteMarkdown(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "memrecall eval: %v\n", err)
		return 1
	}
	return 0
}
