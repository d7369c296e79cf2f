#!/usr/bin/env bash
# Runs every example of the documentation (README.md and docs/**/*.md) and fails, naming the file,
# the line and the command, when one does not exit as it should.
#
# Usage: docs_examples_check.sh BUILD_DIR SOURCE_DIR        (e.g. `build .` from the repository root)
#
# What counts as an example:
#   - each command of a ```sh block: a line that is neither blank nor a comment (lines ending in
#     a backslash are joined to the next). It runs under `bash -o pipefail -c`, so pipes and
#     redirections work; `build/` at the start of a word is replaced by BUILD_DIR, made absolute
#     (build/drop16, build/python);
#   - each ```python block, as one script, run by python3 with PYTHONPATH=BUILD_DIR/python.
# The examples of one file run in the order they appear, in one fresh temporary directory for that
# file (so `tables/...` is made there, and an example may use what an earlier one of the same file
# made), each under a time limit (DOCS_EXAMPLE_TIMEOUT seconds, default 30). Blocks of any other
# language (```text for output, ```cpp, ```cmake, ...) are not run. DOCS_PYTHON names the Python
# the module was built for (default: python3 on PATH); examples calling python3 then run it.
#
# Markers, the only way to change what is run or expected:
#   `# exits N` as a command's trailing comment: the command must exit with status N (a refusal
#       shown on purpose), not 0.
#   `# not run by the docs test: REASON` as a command's trailing comment: that command is not run.
#   `<!-- not run by the docs test: REASON -->` on the line right before a ```sh or ```python
#       fence: that whole block is not run.
# The scripts the test command itself is (`bash scripts/...`: they install packages and build)
# are never run here, without a marker, so that the README can open with them as they are.
# Use the markers only for what else cannot run here: what installs packages or builds (bash scripts/...,
# cmake, pip install), what runs for minutes (benchmarks), what needs several processes (mpirun),
# and what does not exit (serve, and the requests to it). Every skipped command is listed in the
# output with its reason. A long run shown only as an example belongs in the text, not in a block.
set -euo pipefail

if (($# != 2)); then
  echo "usage: $0 BUILD_DIR SOURCE_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
timeout_s=${DOCS_EXAMPLE_TIMEOUT:-30}
skip_marker='not run by the docs test'

[[ -x $build_dir/drop16 ]] || { echo "no drop16 in $build_dir" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -n ${DOCS_PYTHON:-} ]]; then  # `python3` in every example is this one
  mkdir "$work/bin"
  ln -s "$(command -v "$DOCS_PYTHON")" "$work/bin/python3"
  export PATH=$work/bin:$PATH
fi

files=("$source_dir/README.md")
if [[ -d $source_dir/docs ]]; then
  while IFS= read -r f; do files+=("$f"); done < <(find "$source_dir/docs" -name '*.md' | sort)
fi

run=0 skipped=0 failures=()
started=$SECONDS

# Runs one example (kind sh or python, the text to run, the text as written, expected status) in
# directory $dir; records a failure.
run_example() {
  local rel=$1 line=$2 kind=$3 text=$4 shown=$5 expect=$6 dir=$7
  local log=$work/log status=0
  run=$((run + 1))
  if [[ $kind == sh ]]; then
    (cd "$dir" && timeout --kill-after=5 "$timeout_s" bash -o pipefail -c "$text") >"$log" 2>&1 || status=$?
  else
    (cd "$dir" && PYTHONPATH=$build_dir/python PYTHONDONTWRITEBYTECODE=1 \
      timeout --kill-after=5 "$timeout_s" python3 - <<<"$text") >"$log" 2>&1 || status=$?
  fi
  if ((status != expect)); then
    local why="exit status $status, expected $expect"
    ((status == 124)) && why="timed out after ${timeout_s} s"
    failures+=("$rel:$line: $why: $shown")
    echo "FAIL $rel:$line ($why): $shown"
    sed 's/^/  | /' "$log" | tail -15
  fi
}

for file in "${files[@]}"; do
  rel=${file#"$source_dir"/}
  dir=$work/$(echo "$rel" | tr '/' '_')
  mkdir -p "$dir"
  in_block= block_skip= block_line=0 pending_skip= python_text= cmd= cmd_line=0 n=0
  while IFS= read -r raw || [[ -n $raw ]]; do
    n=$((n + 1))
    if [[ -z $in_block ]]; then
      if [[ $raw =~ ^\`\`\`(sh|python)[[:space:]]*$ ]]; then
        in_block=${BASH_REMATCH[1]} block_skip=$pending_skip block_line=$n python_text=
      elif [[ $raw =~ ^\`\`\` ]]; then
        in_block=other
      fi
      pending_skip=
      [[ $raw == *"<!-- $skip_marker:"*"-->"* ]] && pending_skip=$raw
      continue
    fi
    if [[ $raw =~ ^\`\`\`[[:space:]]*$ ]]; then  # the block ends
      if [[ $in_block == python ]]; then
        if [[ -n $block_skip ]]; then
          skipped=$((skipped + 1))
          reason=${block_skip#*$skip_marker: }
          echo "skip $rel:$block_line (python block): ${reason% -->}"
        else
          run_example "$rel" "$block_line" python "$python_text" "(python block)" 0 "$dir"
        fi
      fi
      [[ $in_block == sh && -n $cmd ]] && { failures+=("$rel:$cmd_line: unfinished line: $cmd"); }
      in_block= cmd=
      continue
    fi
    case $in_block in
      other) continue ;;
      python) python_text+=$raw$'\n'; continue ;;
    esac
    # A ```sh block: join continued lines, leave out blank lines and comments.
    if [[ -z $cmd ]]; then
      [[ $raw =~ ^[[:space:]]*(#|$) ]] && continue
      cmd_line=$n
    fi
    if [[ $raw =~ \\$ ]]; then
      cmd+="${raw%\\} "
      continue
    fi
    cmd+=$raw
    if [[ $cmd == "bash scripts/"* ]]; then
      skipped=$((skipped + 1))
      echo "skip $rel:$cmd_line: ${cmd%%  #*}  (the test command's own scripts)"
    elif [[ -n $block_skip || $cmd == *"# $skip_marker:"* ]]; then
      skipped=$((skipped + 1))
      reason=${block_skip:-$cmd}
      reason=${reason#*$skip_marker: }
      echo "skip $rel:$cmd_line: ${cmd%%  #*}  (${reason% -->})"
    else
      expect=0
      [[ $cmd =~ \#[[:space:]]*exits[[:space:]]+([0-9]+)[[:space:]]*$ ]] && expect=${BASH_REMATCH[1]}
      text=$(sed -E "s#(^|[[:space:]=])build/#\1$build_dir/#g" <<<"$cmd")
      run_example "$rel" "$cmd_line" sh "$text" "$cmd" "$expect" "$dir"
    fi
    cmd=
  done <"$file"
  [[ -n $in_block ]] && failures+=("$rel: a code block is not closed")
  echo "$rel: done at $((SECONDS - started)) s"
done

echo "docs examples: $run run, $skipped skipped, $((SECONDS - started)) s"
if ((run == 0)); then
  echo "no example found in ${files[*]}" >&2
  exit 1
fi
if ((${#failures[@]})); then
  echo "${#failures[@]} failed:"
  printf '  %s\n' "${failures[@]}"
  exit 1
fi
