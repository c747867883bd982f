// Seed 001 (001_eb463d961c28884e.txt, "日本語の自由文をLLMなしでYES/NO判定する"):
// the judge normalize(), copied exactly as the seed writes it. Reference oracle for
// sadame's `judge` preset (tests/normalize/test_conformance_node.py). Do not "fix" it.

/**
 * 表記ゆれを吸収して比較用の文字列にする。
 * 例: 「大文字・小文字 は 関係アル？」→「大文字小文字は関係ある」
 */
export function normalize(text) {
  if (typeof text !== "string") return ""
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[ァ-ヶ]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0x60))
    .replace(/[\s　]/g, "")
    .replace(/[、。，．,.!?！？「」『』【】（）()［］\[\]・:;：；'"`]/g, "")
}
