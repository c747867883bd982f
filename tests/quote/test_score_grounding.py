"""The blind grounding scorer (evals/quote/score_grounding.py): each outcome counted apart."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "evals" / "quote" / "score_grounding.py"


def _scorer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("score_grounding", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write(tmp_path: Path, cases: list[dict[str, object]]) -> Path:
    (tmp_path / "cases.jsonl").write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in cases), encoding="utf-8")
    return tmp_path


def test_outcomes_are_counted_by_label(tmp_path: Path) -> None:
    source = "保育士を2名増員する。別に保健師3名を配置する。予算は1億2000万円。"
    output = "保育士を3名増員する。予算は120,000,000円。参加者は50人。"
    case = {"id": "t-01", "source": source, "output": output, "numbers": [
        {"text": "3名", "context": "保育士を3名増員", "supported": False, "why": "原文では2名"},
        {"text": "120,000,000円", "context": "予算は120,000,000円", "supported": True, "why": "表記違い"},
        {"text": "50人", "context": "参加者は50人", "supported": True, "why": "わざと誤ったラベル"},
    ]}
    report = _scorer().score_dirs([_write(tmp_path, [case])])
    assert report["numbers"] == 3
    assert [r["shown"] for r in report["rows"]] == ["differs", "ok", "missing"]
    assert report["by_label"]["unsupported"]["right"] == 1
    assert report["by_label"]["supported"]["right"] == 1
    assert report["by_label"]["supported"]["wrong_false_alarm"] == 1


def test_a_false_ok_is_wrong(tmp_path: Path) -> None:
    case = {"id": "t-02", "source": "売上は100万円。", "output": "売上は100万円。",
            "numbers": [{"text": "100万円", "context": "売上は100万円", "supported": False}]}
    report = _scorer().score_dirs([_write(tmp_path, [case])])
    assert report["outcomes"]["wrong_false_ok"] == 1


def test_a_context_not_in_the_output_is_an_error(tmp_path: Path) -> None:
    case = {"id": "t-03", "source": "a", "output": "売上は100万円。",
            "numbers": [{"text": "100万円", "context": "利益は100万円", "supported": True}]}
    with pytest.raises(ValueError, match="not in the output"):
        _scorer().score_dirs([_write(tmp_path, [case])])


def test_a_label_over_several_numbers_shows_their_worst_mark(tmp_path: Path) -> None:
    """「2024年7月24日〜28日」 is two checked numbers; a ✘ on 28日 is what the reader sees."""
    source = "賞味期限 2024.07.24 〜 2024.07.27"
    output = "賞味期限は2024年7月24日〜28日です。"
    case = {
        "id": "t-02",
        "source": source,
        "output": output,
        "numbers": [
            {
                "text": "2024年7月24日〜28日",
                "context": "賞味期限は2024年7月24日〜28日",
                "supported": False,
                "why": "終わりは27日",
            },
        ],
    }
    report = _scorer().score_dirs([_write(tmp_path, [case])])
    assert [r["shown"] for r in report["rows"]] == ["missing"]
    assert report["by_label"]["unsupported"]["right"] == 1
