#!/usr/bin/env python3
"""One interpreter for the tests' one-shot fixture programs (fixtures.py's archive, wheel,
simple, pbs and xar; sigstore.py's init and sign; `-c` programs), so a test run starts Python
once per interpreter rather than hundreds of times.

Reads one JSON request per line on standard input: {"argv": [SCRIPT, ARG...], "cwd": DIR}, or
{"argv": ["-c", CODE, ARG...], ...}; runs it as `python3 SCRIPT ARG...` (or `python3 -c`)
would, and answers with one JSON line {"status": N, "stdout": "...", "stderr": "..."}. Ends
when its input does (the test process is gone). Servers never run here: they have processes
of their own.
"""
import io
import json
import os
import runpy
import sys
import traceback


def run(request):
    argv = request["argv"]
    out, err = io.StringIO(), io.StringIO()
    status = 0
    saved = sys.argv, sys.stdout, sys.stderr
    try:
        os.chdir(request.get("cwd") or "/")
        sys.stdout, sys.stderr = out, err
        if argv[0] == "-c":
            sys.argv = ["-c"] + argv[2:]
            exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__"})
        else:
            sys.argv = list(argv)
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:
        if isinstance(e.code, int):
            status = e.code
        elif e.code is not None:
            err.write(str(e.code) + "\n")
            status = 1
    except BaseException:
        traceback.print_exc(file=err)
        status = 1
    finally:
        sys.argv, sys.stdout, sys.stderr = saved
    return {"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()}


def main():
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    # Whatever a program writes to descriptor 1 itself goes nowhere, never into the answers.
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    for line in sys.stdin:
        answers.write(json.dumps(run(json.loads(line))) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
