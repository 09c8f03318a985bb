"""How long an audit takes to load: the first time in a fresh process, and again from the in-process cache.

Targets (issue 2): under 0.5 s the first time, under 10 ms after. Each first load runs in its own
interpreter so that nothing is cached; the import of pandas and scikit-learn is timed apart from the load.
"""
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

_PROBE = """
import json, sys, time
import faircode.benchmark as fb
name = sys.argv[1]
t0 = time.perf_counter(); fb.load_audit(name); t1 = time.perf_counter()
again = []
for strategy in ("S2", "baseline", "S1") * 5:
    t = time.perf_counter(); fb.load_audit(name, strategy); again.append(time.perf_counter() - t)
print(json.dumps({"first": t1 - t0, "cached": sorted(again)[len(again) // 2]}))
"""


def main():
    for name in ("Benefits Denial", "German Credit Lending", "Pretrial Risk Assessment"):
        runs = []
        for _ in range(3):
            out = subprocess.run([sys.executable, "-c", _PROBE, name], cwd=ROOT, check=True, capture_output=True,
                                 text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}).stdout
            runs.append(json.loads(out))
        slug = name.lower().replace(" ", "_")
        print(f"BENCH load_audit_first_{slug} {min(r['first'] for r in runs) * 1000:.1f} ms")
        print(f"BENCH load_audit_cached_{slug} {min(r['cached'] for r in runs) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
