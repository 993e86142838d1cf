"""Write SyntheticGlyphs images as PNG files, new images to classify with examples/predict.py.

The files are named ``<index>-<figure>.png`` after the figure they show. The default seed gives images that
examples/finetune.py neither trained nor tested on (it uses seeds 0 and 1):

    python examples/glyph_images.py glyphs/
    python examples/predict.py runs/glyphs/full.pt glyphs/
"""
from __future__ import annotations

import argparse
import pathlib
import sys

from minitorch.datasets import SyntheticGlyphs

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # the examples' shared helpers
from image_training import positive_int  # noqa: E402


def main(argv: list[str] | None = None) -> list[pathlib.Path]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", help="where to write the images (made if missing)")
    parser.add_argument("--count", type=positive_int, default=8, help="how many images (default: 8, one per figure)")
    parser.add_argument("--image-size", type=positive_int, default=48, help="side in pixels (default: 48)")
    parser.add_argument("--seed", type=int, default=2, help="which set of images (default: 2)")
    args = parser.parse_args(argv)
    try:
        images = SyntheticGlyphs("test", size=args.count, image_size=args.image_size, seed=args.seed)
    except ValueError as e:
        parser.error(str(e))
    folder = pathlib.Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(len(images)):
        image, label = images[index]
        paths.append(folder / f"{index}-{images.classes[label]}.png")
        image.save(paths[-1])
    print(f"{len(paths)} images written to {folder}")
    return paths


if __name__ == "__main__":
    main()
