// Seed 000's TypeScript, as written there, in plain JavaScript (types removed).
// Reads a JSON list of texts on stdin, prints [{text, key, id, tokens, positive}] as JSON.
import { createHash } from 'node:crypto';
// One copy of the seed's label stripping and normalizeBaseText, shared with the normalize conformance test.
import { normalizeBaseText } from '../../normalize/js/seed000_issue.mjs';

const CANONICAL_PATTERNS = [
  { pattern: /(安定性|安定|ぶれ|ブレ|バランス)/, token: 'stability_issue' },
  { pattern: /(遅れ|遅い|タイミング|リカバリー|復帰)/, token: 'timing_delay' },
  { pattern: /(不足|足りない|弱い|不十分)/, token: 'insufficient_control' },
  { pattern: /(一貫性|ばらつき|バラつき|再現性)/, token: 'consistency_issue' },
  { pattern: /(集中|意識|注意|見落とし)/, token: 'attention_issue' },
];

const normalizeIssueText = (text) => {
  const stripped = normalizeBaseText(text);
  const tokens = new Set();
  CANONICAL_PATTERNS.forEach(({ pattern, token }) => {
    if (pattern.test(stripped)) {
      tokens.add(token);
    }
  });
  if (tokens.size > 0) {
    return Array.from(tokens).sort().join('::');
  }
  return stripped;
};

const buildIssueId = (text) => {
  const normalized = normalizeIssueText(text) || text.toLowerCase();
  const hash = createHash('sha256').update(normalized).digest('hex');
  return hash.slice(0, 40);
};

const normalizeIssueKey = (text) => {
  const canonical = normalizeIssueText(text);
  const tokens = canonical.split('::').filter(Boolean);
  return { canonical, tokens };
};

const positivePattern =
  /(向上|改善傾向|改善が見られ|良好|安定している|できている)/;
const negativePattern =
  /(課題|不足|不安定|遅れ|崩れ|問題|弱さ|リスク)/;

const isPositiveSummary = (summary) => {
  return positivePattern.test(summary) && !negativePattern.test(summary);
};

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const texts = JSON.parse(input);
  const out = texts.map((text) => ({
    text,
    key: normalizeIssueText(text) || text.toLowerCase(),
    id: buildIssueId(text),
    tokens: normalizeIssueKey(text).tokens,
    positive: isPositiveSummary(text),
  }));
  process.stdout.write(JSON.stringify(out));
});
