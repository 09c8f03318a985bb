"""Run every benchmark in scripts/benchmarks/ and print its `BENCH <name> <value> <unit>` lines.

Each module there exposes ``main()``; they run one after another so that they do not compete for the two cores.
"""
import importlib.util
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent


def main(argv):
    only = set(argv)
    for path in sorted((HERE / "benchmarks").glob("bench_*.py")):
        if only and path.stem not in only:
            continue
        print(f"# {path.stem}", flush=True)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main()


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    main(sys.argv[1:])
