// Seed 000 (000_97dac3b81d2e3114.txt, "LLMの出力を追跡可能にする"): label stripping and
// normalizeBaseText, as the seed writes them in TypeScript with only the type
// annotations removed. Reference oracle for sadame's `issue` preset
// (tests/normalize/test_conformance_node.py). Do not "fix" it.

const ISSUE_CATEGORY_LABEL_PATTERN =
/^(?:最優先改善点|改善ポイント|影響分析|改善期待効果|意識するポイント|課題)[：:]\s*/;
const stripIssueCategoryLabel = (text) =>
(text || '').replace(ISSUE_CATEGORY_LABEL_PATTERN, '');

const normalizeBaseText = (text) => {
return stripIssueCategoryLabel(text)
.normalize('NFKC')
.replace(/[\s、。,.・/]+/g, ' ')
.toLowerCase()
.trim();
};

export { ISSUE_CATEGORY_LABEL_PATTERN, stripIssueCategoryLabel, normalizeBaseText };
