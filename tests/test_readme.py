"""The README's examples are doctests: they must print what the README shows."""
import doctest
import pathlib


def test_readme_examples():
    readme = pathlib.Path(__file__).resolve().parent.parent / "README.md"
    result = doctest.testfile(str(readme), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10 and result.failed == 0


def test_autograd_tour_runs(capsys):
    import runpy
    path = pathlib.Path(__file__).resolve().parent.parent / "examples" / "autograd_tour.py"
    runpy.run_path(str(path), run_name="__main__")
    out = capsys.readouterr().out
    assert "tensor([-12.,  65.], grad_fn=<SubBackward0>)" in out
    assert "a.grad == 9a^2: tensor([True, True])" in out
    assert "dk/di = 18.0 dk/dh = -64.0" in out
    assert "d2/dt2 t^3 = tensor([ 6., 12.])" in out
