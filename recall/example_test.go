package recall_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/recall"
)

// exampleTree writes a small project and user memory tree and returns
// their roots and a cleanup function.
func exampleTree() (project, user string, cleanup func()) {
	root, err := os.MkdirTemp("", "recall-example")
	if err != nil {
		panic(err)
	}
	project, user = filepath.Join(root, "project"), filepath.Join(root, "user")
	files := []struct{ dir, name, text string }{
		{project, "deploy-checklist.md", "---\ntype: reference\nname: Deploy checklist\ndescription: steps before every production deploy\n---\nRun the smoke tests, then tag the release.\n"},
		{project, "release-freeze.md", "---\ntype: project\nname: Release freeze\ndescription: no deploy during the Q4 freeze\n---\nFreeze from Dec 15 to Jan 5.\n"},
		{project, "flaky-tests.md", "---\ntype: project\nname: Flaky tests\ndescription: known flaky integration tests\n---\nTestPayments retries twice.\n"},
		{user, "terse.md", "---\ntype: feedback\nname: Terse answers\ndescription: the user wants short answers for deploy questions\n---\nNo preamble.\n"},
	}
	now := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	for i, f := range files {
		if err := os.MkdirAll(f.dir, 0o755); err != nil {
			panic(err)
		}
		path := filepath.Join(f.dir, f.name)
		if err := os.WriteFile(path, []byte(f.text), 0o644); err != nil {
			panic(err)
		}
		mod := now.Add(-time.Duration(i+1) * 24 * time.Hour)
		if err := os.Chtimes(path, mod, mod); err != nil {
			panic(err)
		}
	}
	return project, user, func() { os.RemoveAll(root) }
}

// A complete turn of a host with no model selector: the initial prompt
// carries the lexical top five (here two) matching documents.
func Example() {
	project, user, cleanup := exampleTree()
	defer cleanup()

	eng := recall.New(recall.Options{
		ProjectDir: project,
		UserDir:    user,
		Clock:      func() time.Time { return time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC) },
	})
	defer eng.Shutdown()

	ctx := context.Background()
	plan := eng.Query(ctx, recall.Query{Text: "how do I deploy?"})
	inj := plan.Initial(ctx)
	fmt.Println(inj.Phase, inj.Strategy, len(inj.Docs))
	for _, line := range strings.Split(inj.Text, "\n") {
		if strings.HasPrefix(line, "## ") || strings.Contains(line, " memory: ") {
			fmt.Println(line)
		}
	}
	// The model answers without calling a tool: the turn ends.
	plan.End()
	// Output:
	// refined heuristic 3
	// ## 1. Deploy checklist
	// project memory: deploy-checklist.md (saved yesterday)
	// ## 2. Release freeze
	// project memory: release-freeze.md (saved 2 days ago)
	// ## 3. Terse answers
	// user memory: terse.md (saved 4 days ago)
}

// A turn with a model selector slower than the initial wait: the first
// prompt carries the fast two, and the selector's choice minus those two
// goes after the next tool result.
func ExamplePlan_ToolResult() {
	project, user, cleanup := exampleTree()
	defer cleanup()

	// A stand-in for a model endpoint that answers while the host's first
	// request is on its way: it waits for the host's signal.
	requestSent := make(chan struct{})
	selector := model.SelectorFunc(func(ctx context.Context, req model.Request) ([]string, error) {
		select {
		case <-requestSent:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return []string{"project/release-freeze.md", "project/flaky-tests.md"}, nil
	})
	eng := recall.New(recall.Options{ProjectDir: project, UserDir: user, Selector: selector})
	defer eng.Shutdown()

	ctx := context.Background()
	plan := eng.Query(ctx, recall.Query{Text: "deploy today"})
	show := func(point string, inj recall.Injection) {
		var names []string
		for _, id := range inj.Docs {
			names = append(names, filepath.Base(string(id)))
		}
		fmt.Println(point, inj.Phase, inj.Strategy, names)
	}
	show("initial:", plan.Initial(ctx))
	close(requestSent)
	<-plan.Settled() // a real host does not wait; this keeps the output stable
	show("tool result:", plan.ToolResult())
	plan.End()
	// Output:
	// initial: fast heuristic [deploy-checklist.md release-freeze.md]
	// tool result: refined model [flaky-tests.md]
}

// A selector that meets a fatal provider error shuts the engine down from
// inside Select. It passes ShutdownFrom the context Select received, so
// Shutdown does not wait for the very call it runs in.
func ExampleEngine_ShutdownFrom() {
	project, user, cleanup := exampleTree()
	defer cleanup()

	var eng *recall.Engine
	selector := model.SelectorFunc(func(ctx context.Context, req model.Request) ([]string, error) {
		fmt.Println("selector: the provider revoked the key; shutting down")
		eng.ShutdownFrom(ctx)
		return nil, ctx.Err()
	})
	eng = recall.New(recall.Options{ProjectDir: project, UserDir: user, Selector: selector})
	defer eng.Shutdown() // the host's own Shutdown returns too

	ctx := context.Background()
	plan := eng.Query(ctx, recall.Query{Text: "deploy today"})
	plan.Initial(ctx)
	<-plan.Settled()
	fmt.Println("a later query delivers nothing:", eng.Query(ctx, recall.Query{Text: "deploy"}).Initial(ctx).Empty())
	// Output:
	// selector: the provider revoked the key; shutting down
	// a later query delivers nothing: true
}

// Engines of several conversations on the same roots share one Corpus,
// which watches the tree (Linux inotify; stat revalidation elsewhere): a
// query on an unchanged tree reads no file, and a memory written before a
// query is always in what it ranks. The host closes the corpus when the
// last engine on it is done.
func ExampleCorpus() {
	project, user, cleanup := exampleTree()
	defer cleanup()

	corpus := recall.NewCorpus(recall.Options{ProjectDir: project, UserDir: user})
	defer corpus.Close()
	first := recall.New(recall.Options{Corpus: corpus})
	defer first.Shutdown()
	second := recall.New(recall.Options{Corpus: corpus})
	defer second.Shutdown()

	ctx := context.Background()
	ask := func(eng *recall.Engine, q string) []string {
		plan := eng.Query(ctx, recall.Query{Text: q})
		// No selector: the plan settles as soon as it has ranked. Waiting
		// for that keeps the output independent of the machine's load.
		<-plan.Settled()
		var titles []string
		for _, line := range strings.Split(plan.Initial(ctx).Text, "\n") {
			if strings.HasPrefix(line, "## ") {
				titles = append(titles, line)
			}
		}
		return titles
	}
	fmt.Println(ask(first, "rollback procedure"))
	note := "---\ntype: reference\nname: Rollback procedure\ndescription: how to roll a bad deploy back\n---\nRedeploy the previous tag.\n"
	if err := os.WriteFile(filepath.Join(project, "rollback.md"), []byte(note), 0o644); err != nil {
		panic(err)
	}
	fmt.Println(ask(second, "rollback procedure"))
	// Output:
	// []
	// [## 1. Rollback procedure]
}
