"""The README's examples: its Python sessions are doctests, and its shell commands run, in order, on a fresh copy.

The shell commands are every line of a ```bash block and every ``$ `` line of a ```text block (whose following
lines show the output). ``test_readme_commands_run_in_order_on_a_fresh_copy`` runs them as written in a copy
of the repository's tracked files, from its root, with these differences, each stated where it is made:

- ``NOT_RUN``: the lines that are not run, and why;
- ``SMALL``: arguments appended to a script's command so that it runs in seconds (argparse keeps the last
  value given), never removing or changing the README's own arguments;
- the home folder is a new one holding what the README asks a user to bring: photos in ``~/pictures`` and,
  for ``--weights IMAGENET1K_V1`` (which this machine cannot download), a file in the hub cache under the
  name torchvision downloads it to, with random resnet18 weights.
"""
import doctest
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

import minitorch
import minitorch.models as models
from printed_numbers import printout_mismatches
from locations import EXAMPLES, ROOT

README = ROOT / "README.md"

NOT_RUN = {
    "pip install": "installs from the network into the running Python; the test puts the copy's packages first on "
                   "PYTHONPATH instead, laid out as pyproject.toml's package-dir installs them",
    "python -m pytest": "the test suite itself, which this test is part of",
}
# one epoch on 8 images per split at 16 px: the ImageNet weights' own preprocessing at 224 px is not run here
# (tests/examples/test_finetune.py runs it)
SMALL = {"examples/finetune.py": ["--epochs", "1", "--batch-size", "8", "--train-size", "8", "--val-size", "8",
                                  "--test-size", "8", "--image-size", "16"]}
# a line of examples/predict.py's output: its classes and probabilities come from the tiny runs, so only the
# file and the number of classes are compared
PREDICTION = re.compile(r"(\S+): (\S+ \d\.\d+(?:, )?)+")
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d*)?(?:[eE][-+]?\d+)?")


class Float32Checker(doctest.OutputChecker):
    """doctest's comparison, or else the text exactly and each float within float32's tolerance (see
    printed_numbers.py): a printed result may end in another digit on another BLAS kernel."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return super().check_output(want, got, optionflags) or ("..." not in want and not
                                                                printout_mismatches(got, want))


def test_readme_examples():
    test = doctest.DocTestParser().get_doctest(README.read_text(), {}, README.name, str(README), 0)
    runner = doctest.DocTestRunner(Float32Checker(), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    result = runner.run(test)
    assert result.attempted > 10 and result.failed == 0
    assert Float32Checker().check_output("tensor([0.1235, 1.0000])\n", "tensor([0.1234, 1.0000])\n", 0)
    assert not Float32Checker().check_output("tensor([0.1237, 1.0000])\n", "tensor([0.1234, 1.0000])\n", 0)


def test_autograd_tour_runs(capsys):
    import runpy
    path = EXAMPLES / "autograd_tour.py"
    runpy.run_path(str(path), run_name="__main__")
    out = capsys.readouterr().out
    assert "tensor([-12.,  65.], grad_fn=<SubBackward0>)" in out
    assert "a.grad == 9a^2: tensor([True, True])" in out
    assert "dk/di = 18.0 dk/dh = -64.0" in out
    assert "d2/dt2 t^3 = tensor([ 6., 12.])" in out


def readme_commands(text: str) -> list[tuple[str, str | None]]:
    """The shell commands of the README in order, each with the output the README shows (None: none shown)."""
    commands = []
    for kind, body in re.findall(r"^```(bash|text)\n(.*?)^```", text, flags=re.M | re.S):
        if kind == "bash":
            for line in body.splitlines():
                line = re.sub(r"\s+#.*", "", line).strip()  # the README's comments follow two spaces or more
                commands += [(part.strip(), None) for part in line.split("&&") if part.strip()]
        else:
            for chunk in re.split(r"^\$ ", body, flags=re.M)[1:]:
                command, _, output = chunk.partition("\n")
                commands.append((command, output))
    return commands


def transcript_pattern(shown: str) -> re.Pattern:
    """A pattern for output the README shows: a '...' line stands for any lines, any number for any number,
    a run of spaces for any run of spaces (columns widen with their numbers), a prediction line for one of the
    same file with as many classes."""
    lines = []
    for line in shown.splitlines():
        if line == "...":
            lines.append(r"(?:.*\n)*?")
        elif found := PREDICTION.fullmatch(line):
            pairs = line.count(",") + 1
            lines.append(re.escape(found.group(1)) + r": \S+ [\d.]+" + r", \S+ [\d.]+" * (pairs - 1) + r"\n")
        else:
            pieces = [re.sub(r"\\ (\\ )*", " +", re.escape(piece)) for piece in NUMBER.split(line)]
            lines.append(NUMBER.pattern.join(pieces) + r"\n")
    return re.compile("".join(lines))


def test_transcript_pattern_tells_output_apart():
    shown = "...\nrun      epochs accuracy\nfrozen        6    0.696\n...\n"
    pattern = transcript_pattern(shown)
    assert pattern.fullmatch("bar\nbaz\nrun      epochs accuracy\nfrozen        1    0.125\nnext\n")
    assert pattern.fullmatch("run      epochs accuracy\nfrozen        1    0.125\n")
    assert not pattern.fullmatch("run      epochs accuracy\nfull        1    0.125\n")  # another row
    assert not pattern.fullmatch("run      epochs accuracy\n")  # a row missing
    predictions = transcript_pattern("g/0-a.png: a 0.565, b 0.197, c 0.193\n")
    assert predictions.fullmatch("g/0-a.png: c 0.900, a 0.050, b 0.050\n")
    assert not predictions.fullmatch("g/1-a.png: c 0.900, a 0.050, b 0.050\n")
    assert not predictions.fullmatch("g/0-a.png: c 0.900, a 0.050\n")


def fresh_copy(dest: pathlib.Path) -> pathlib.Path:
    """The repository's tracked files (what a clone has) with their content in this working tree, under ``dest``."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: no list of the files a clone has")
    for name in filter(None, listed.decode().split("\0")):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def installed_layout(repo: pathlib.Path, site: pathlib.Path) -> pathlib.Path:
    """``site`` holding the packages of ``repo`` where an install puts them: minitorch with the folders that
    pyproject.toml's package-dir maps into it (models/ as minitorch/models, ...), as links into ``repo``."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    package_dir = tomllib.loads((repo / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    (site / "minitorch").mkdir(parents=True)
    for entry in (repo / "minitorch").iterdir():
        (site / "minitorch" / entry.name).symlink_to(entry)
    for name, folder in package_dir.items():
        parent, _, child = name.rpartition(".")
        assert parent == "minitorch", name
        (site / "minitorch" / child).symlink_to(repo / folder)
    return site


def users_home(home: pathlib.Path) -> pathlib.Path:
    """What the README asks a user to bring: photos to finetune on (an ImageFolder of two classes) and to
    classify, and torchvision's resnet18 ImageNet weights in the default hub cache (random weights here)."""
    rng = np.random.default_rng(0)
    for folder, count in (("flowers/daisy", 4), ("flowers/tulip", 4), ("new", 2)):
        (home / "pictures" / folder).mkdir(parents=True)
        for i in range(count):
            pixels = rng.integers(0, 256, (40, 56, 3), dtype=np.uint8)
            Image.fromarray(pixels).save(home / "pictures" / folder / f"{i}.jpg")
    weights = models.ResNet18_Weights.IMAGENET1K_V1
    cache = home / ".cache" / "torch" / "hub" / "checkpoints"
    cache.mkdir(parents=True)
    minitorch.manual_seed(0)
    minitorch.save(models.resnet18().state_dict(), cache / weights.file)
    return home


@pytest.mark.slow
def test_readme_commands_run_in_order_on_a_fresh_copy(tmp_path):
    commands = readme_commands(README.read_text())
    skipped = [command for command, _ in commands if command.startswith(tuple(NOT_RUN))]
    assert skipped == ["pip install -e .", 'pip install -q -e ".[dev]"', "python -m pytest -q -n auto"]
    repo = fresh_copy(tmp_path / "repo")
    (tmp_path / "bin").mkdir()
    (python := tmp_path / "bin" / "python").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
    python.chmod(0o755)
    # PYTHONDONTWRITEBYTECODE too: as on a user's machine, the first command leaves the compiled modules for the next
    env = {key: value for key, value in os.environ.items() if key not in (
        "TORCH_HOME", "XDG_CACHE_HOME", "MINITORCH_WEIGHTS_DIR", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    env |= {"HOME": str(users_home(tmp_path / "home")), "PATH": f"{tmp_path / 'bin'}{os.pathsep}{env['PATH']}",
            "PYTHONPATH": str(installed_layout(repo, tmp_path / "site"))}
    ran = []
    for command, shown in commands:
        if command in skipped:
            continue
        script = shlex.split(command)[1] if command.startswith("python ") else None
        line = " ".join([command] + [shlex.quote(arg) for arg in SMALL.get(script, [])])
        done = subprocess.run(["bash", "-c", line], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{line}\n{done.stderr[-3000:]}"
        if shown is not None:
            assert transcript_pattern(shown).fullmatch(done.stdout), f"{line}\nprinted:\n{done.stdout}\nREADME:\n{shown}"
        ran.append(command)
    assert len(ran) == len(commands) - len(skipped) >= 7
