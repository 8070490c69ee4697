// Package memory is memrecall's vocabulary — Scope, Type, ID, Document —
// and its reader of managed-memory trees in the on-disk format of Qwen Code
// and Claude Code (spec §2): Markdown topic files with a small frontmatter,
// under a project root and a user root.
//
// Parse reads one file. Scan reads a tree once. A Catalog keeps the parsed
// tree in memory and revalidates it by stat on every Scan, so a host that
// recalls on every user turn pays for a full read only once:
//
//	cat := memory.NewCatalog(memory.Roots{Project: projectDir, User: userDir})
//	cat.Warm() // at session start, in the background
//	...
//	res, err := cat.Scan(ctx) // per query: joins the warm-up or revalidates
//	for _, d := range res.Docs { ... } // project first, newest first
//	log.Printf("skipped: %v", res.Skipped) // counts by reason, no paths
//
// Bad input never stops a scan: every file or directory passed over is
// counted in Result.Skipped under a fixed SkipReason, and nothing about it
// (path, content) is reported anywhere else. A scan reads at most ReadLimit
// bytes of a file, with a bounded number of workers and an open, fstat,
// read and close per file.
package memory
