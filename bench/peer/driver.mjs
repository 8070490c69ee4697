// Calls Qwen Code's shipped memory scan and ranking, loaded from the
// installed npm bundle (see main.go: the chunk that defines them is copied
// verbatim next to itself with one export line appended, so its relative
// imports resolve and the functions run exactly as shipped).
//
// Protocol: one JSON object per line on stdin, {"project", "user",
// "query"}; one JSON line on stdout per request, {"ms", "cpu_ms", "docs",
// "fast", "faults"}: wall and CPU (all of Node's threads) milliseconds,
// and the minor page faults Node took meanwhile.
// The timed work is what Qwen Code 0.24.4's
// resolveRelevantAutoMemoryPromptForQuery does before its fast result:
// scan both roots (uncapped, in parallel), then select the model
// candidates and the heuristic fallback (whose first two are the fast
// result).
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";

const mod = await import(process.argv[2]);
const scan = mod.__memrecallPeerScan;
const select = mod.__memrecallPeerSelect;
if (typeof scan !== "function" || typeof select !== "function") {
  throw new Error("peer functions not found in " + process.argv[2]);
}
process.stdout.write(JSON.stringify({ ready: true }) + "\n");

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  const f0 = process.resourceUsage().minorPageFault;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const [p, u] = await Promise.all([
    scan(req.project, { uncapped: true }),
    scan(req.user, { uncapped: true }).catch(() => []),
  ]);
  const docs = [...p, ...u];
  const out = select(req.query, docs, [], 5);
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const faults = process.resourceUsage().minorPageFault - f0;
  process.stdout.write(
    JSON.stringify({
      ms,
      cpu_ms: (c.user + c.system) / 1000,
      docs: docs.length,
      fast: out.fallbackDocs.slice(0, 2).map((d) => d.relativePath),
      faults,
    }) + "\n",
  );
}
