"""Build hook: the shipped games (``rulesets/``, kept at the top of the checkout where they
are edited) go into the wheel as package data at ``rulesplay/rulesets/`` (found at run time
by :mod:`rulesplay.shipped`). Everything else is configured in pyproject.toml; the sdist
carries ``rulesets/`` through MANIFEST.in."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SUFFIXES = (".rules", ".part")  # ruleset text only: no README or stray file of the folder


class BuildPyWithRulesets(build_py):
    """``build_py`` that also copies every ``.rules``/``.part`` file under ``rulesets/``."""

    def run(self) -> None:
        super().run()
        source = Path(__file__).resolve().parent / "rulesets"
        target = Path(self.build_lib) / "rulesplay" / "rulesets"
        for path in sorted(source.rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES:
                dest = target / path.relative_to(source)
                self.mkpath(str(dest.parent))
                self.copy_file(str(path), str(dest), preserve_mode=False)


setup(cmdclass={"build_py": BuildPyWithRulesets})
