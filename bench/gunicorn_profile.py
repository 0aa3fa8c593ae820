"""gunicorn.conf.py's settings with the requests of one kind profiled in every worker, by
cProfile counting CPU time: `bench/throughput.py --profile KIND` starts gunicorn with it.

A request is profiled from gunicorn's `pre_request` to its `post_request`: the WSGI call,
writing the answer and the access log, not waiting for the next connection. Only paths that
match PROFILE_PATH count, and each worker's first ones are left out (its imports, template
compiling and first connections are a worker's start, not a request's cost). Each worker
writes its profile to PROFILE_DIR when it exits (replaced after its requests, or at the end).
"""

import cProfile
import os
import re
import runpy
import time
from pathlib import Path

_production = runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py"))
globals().update({name: value for name, value in _production.items() if not name.startswith("__")})

WARM_UP = 20  # a worker's first requests of the kind, left out
_PATH = re.compile(os.environ.get("PROFILE_PATH", "."))


def post_fork(server, worker):
    worker.profile = cProfile.Profile(time.process_time)
    worker.profiled = 0


def pre_request(worker, req):
    if _PATH.search(req.path):
        worker.profiled += 1
        if worker.profiled > WARM_UP:
            worker.profile.enable()


def post_request(worker, req, environ, resp):
    worker.profile.disable()


def worker_exit(server, worker):
    if worker.profiled > WARM_UP:
        worker.profile.dump_stats(Path(os.environ["PROFILE_DIR"]) / f"worker-{worker.pid}.prof")
