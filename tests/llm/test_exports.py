from __future__ import annotations

import sadame.llm
import sadame.llm.testing


def test_public_names_exist_and_are_listed() -> None:
    for module in (sadame.llm, sadame.llm.testing):
        for name in module.__all__:
            assert hasattr(module, name), f"{module.__name__}.{name}"
    assert sorted(sadame.llm.__all__) == sorted(set(sadame.llm.__all__))
    assert {"LLMFallback", "LLMMatcher", "OpenAICompatProvider", "GeminiProvider", "VerdictCache"} <= set(
        sadame.llm.__all__
    )


def test_importing_the_package_does_not_import_the_gemini_sdk() -> None:
    import sys

    assert "google.genai" not in sys.modules or sys.modules["google.genai"] is None
