"""Bad input files get one line, never a traceback."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from sadame.cli import cli


def test_lint_config_that_is_not_utf8(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_bytes(b"\xff\xfe[tool.sadame.lint]\n")
    (tmp_path / "a.py").write_text("x = 1\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["lint", "--config", str(config), str(tmp_path / "a.py")])
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit)
    assert "not UTF-8" in result.output and "Traceback" not in result.output


def test_track_ingest_of_deeply_nested_or_non_utf8_json(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    args = ["track", "ingest", "--db", db, "--user", "u1", "--session", "s1", "-"]
    for data, expected in ((b"[" * 100_000 + b"]" * 100_000, "nested too deeply"), (b"\xff[]", "not UTF-8")):
        result = CliRunner().invoke(cli, args, input=data)
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
        assert expected in result.output and len(result.output.strip().splitlines()) == 1


def test_non_utf8_arguments_are_one_line() -> None:
    import subprocess
    import sys
    from pathlib import Path

    sadame = str(Path(sys.executable).parent / "sadame")
    for args in ([b"judge", b"\xff\xfe", b"x"], [b"normalize", b"--preset", b"judge", b"ab\xe3\x81"],
                 [b"track", b"list", b"--user", b"\xc3"]):
        result = subprocess.run([sadame.encode(), *args], capture_output=True, timeout=60)
        lines = result.stderr.decode("utf-8", "replace").strip().splitlines()
        assert result.returncode != 0 and len(lines) == 1, lines
        assert "not valid UTF-8" in lines[0] and "Traceback" not in lines[0]
