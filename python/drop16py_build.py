"""The build backend of `pip install .` (PEP 517; pyproject.toml names it): builds the CMake
target drop16py and packs the module into a wheel.

It uses Python's standard library only and asks pip for no build requirements, so an isolated
build needs no package index. The CMake build directory is build/ under the source tree (the one
scripts/build.sh makes: after it, nothing is compiled again), or the one named by
`--config-settings build-dir=DIR` or the environment variable DROP16_BUILD_DIR; a directory not
yet configured is configured in Release for the Python running pip.
"""

import base64
import hashlib
import io
import os
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1]
MODULE = "drop16py"


class BuildError(RuntimeError):
    pass


def _project():
    with open(SOURCE / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _build_dir(config_settings):
    named = (config_settings or {}).get("build-dir") or os.environ.get("DROP16_BUILD_DIR")
    return Path(named).resolve() if named else SOURCE / "build"


def _run(command):
    # The build's output goes to stderr, which pip shows with -v or on failure.
    print("+ " + " ".join(str(c) for c in command), file=sys.stderr, flush=True)
    if subprocess.run([str(c) for c in command], stdout=sys.stderr, check=False).returncode:
        raise BuildError(f"failed: {' '.join(str(c) for c in command)}")


def _built_module(config_settings):
    build = _build_dir(config_settings)
    if not (build / "CMakeCache.txt").exists():
        _run(["cmake", "-S", SOURCE, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
              f"-DPython_EXECUTABLE={sys.executable}"])
    _run(["cmake", "--build", build, "--target", MODULE])
    module = build / "python" / (MODULE + sysconfig.get_config_var("EXT_SUFFIX"))
    if not module.exists():
        found = sorted(p.name for p in (build / "python").glob(MODULE + "*.so"))
        raise BuildError(f"{build} builds {', '.join(found) or 'no module'}, not {module.name} "
                         f"for {sys.executable}: name another build directory "
                         "(--config-settings build-dir=DIR)")
    return module


def _wheel_tag():
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{python}-{python}-{platform}"


def _metadata(project):
    return (f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
            f"Summary: {project['description']}\n"
            f"Requires-Python: {project['requires-python']}\n")


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = _project()
    module = _built_module(config_settings)
    tag = _wheel_tag()
    info = f"{project['name']}-{project['version']}.dist-info"
    files = {
        module.name: module.read_bytes(),
        f"{info}/METADATA": _metadata(project).encode(),
        f"{info}/WHEEL": (f"Wheel-Version: 1.0\nGenerator: {MODULE}_build\nRoot-Is-Purelib: "
                          f"false\nTag: {tag}\n").encode(),
    }
    record = "".join(_record_line(name, data) for name, data in files.items())
    record += f"{info}/RECORD,,\n"
    files[f"{info}/RECORD"] = record.encode()
    name = f"{project['name']}-{project['version']}-{tag}.whl"
    with zipfile.ZipFile(Path(wheel_directory) / name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            wheel.writestr(path, data)
    return name


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    base = f"{project['name']}-{project['version']}"
    listed = subprocess.run(["git", "-C", SOURCE, "ls-files", "-z"], capture_output=True,
                            check=False)
    if listed.returncode:
        raise BuildError("a source distribution is made from a git checkout (git ls-files)")
    name = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz") as sdist:
        for path in filter(None, listed.stdout.decode().split("\0")):
            sdist.add(SOURCE / path, arcname=f"{base}/{path}", recursive=False)
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata(project).encode()
        info.size = len(data)
        sdist.addfile(info, io.BytesIO(data))
    return name
