// Runs the seeds' functions over a corpus: one process, JSON in on stdin, JSON out on stdout.
//   in:  {"cases": [string...], "code_points": [int...]}
//   out: {"node": ..., "unicode": ..., "judge": [...], "strip": [...], "issue": [...],
//         "unassigned": [code points that are General_Category=Cn in this Node's Unicode]}
// Lone surrogates survive both ways: Python sends \\uXXXX escapes and JSON.stringify
// (well-formed since Node 12) escapes lone surrogates in what it returns.
import { normalize } from "./seed001_judge.mjs"
import { stripIssueCategoryLabel, normalizeBaseText } from "./seed000_issue.mjs"

const chunks = []
process.stdin.on("data", (chunk) => chunks.push(chunk))
process.stdin.on("end", () => {
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"))
  const cases = input.cases
  const unassigned = /^\p{Cn}$/u
  const out = {
    node: process.version,
    unicode: process.versions.unicode,
    judge: cases.map((s) => normalize(s)),
    strip: cases.map((s) => stripIssueCategoryLabel(s)),
    issue: cases.map((s) => normalizeBaseText(s)),
    unassigned: input.code_points.filter((cp) => unassigned.test(String.fromCodePoint(cp))),
  }
  process.stdout.write(JSON.stringify(out))
})
