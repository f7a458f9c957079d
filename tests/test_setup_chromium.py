"""`make test` on a fresh machine: tools/chromium.sh gives the browser tests
their headless Chromium, installing Debian's package as root or through sudo,
and otherwise saying in one line what to run."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SCRIPT = Path(__file__).parents[1] / "tools" / "chromium.sh"


def run_script(present: bool) -> tuple[subprocess.CompletedProcess, Path]:
    """The script as a user who may not install anything (as root, dropped to
    nobody, who has no sudo; otherwise with no sudo on the PATH), with a
    stand-in Chromium in place or none."""
    folder = Path(tempfile.mkdtemp(prefix="zsim-chromium-"))
    try:
        folder.chmod(0o755)
        chromium = folder / "chromium"
        if present:
            chromium.write_text("#!/bin/sh\n")
            chromium.chmod(0o755)
        script = folder / "chromium.sh"
        shutil.copy(SCRIPT, script)
        script.chmod(0o755)
        env = {"ZSIM_CHROMIUM": str(chromium), "LANG": "C.UTF-8"}
        if os.geteuid() == 0:
            cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "bash", str(script)]
            env["PATH"] = os.environ.get("PATH", "/usr/bin:/bin")
        else:
            bin_dir = folder / "bin"
            bin_dir.mkdir()
            for tool in ("id", "env"):
                (bin_dir / tool).symlink_to(shutil.which(tool))
            cmd = [shutil.which("bash"), str(script)]
            env["PATH"] = str(bin_dir)
        return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=folder, timeout=60), chromium
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_chromium_in_place_is_left_alone():
    done, _ = run_script(present=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_without_chromium_or_the_right_to_install_it_one_line_says_what_to_run():
    done, missing = run_script(present=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"make test needs headless Chromium at {missing}: run 'sudo apt-get install chromium' "
                           f"once, then make test again\n")


def test_make_test_and_ci_run_it_first():
    makefile = (SCRIPT.parents[1] / "Makefile").read_text()
    recipe = makefile.split("\ntest: ", 1)[1].split("\n\n", 1)[0].splitlines()
    assert recipe[1].strip() == "bash tools/chromium.sh" and "pytest" in recipe[2], recipe
    assert (SCRIPT.parents[1] / ".ci" / "run").read_text().rstrip().endswith("\nmake test")
