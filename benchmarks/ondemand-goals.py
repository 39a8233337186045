#!/usr/bin/env python3
"""Measures on-demand profiling's goals (issue 49) on a real application, Spring PetClinic by default.

Starts the jar with tracing sampled at 0.1 and on-demand profiling on with a token, then:
  1. asks for 20 requests' profiles with the right token: each response must carry Server-Timing with its span id and
     a Link, each span must be listed in /actuator/spanprofile as forced, each with its graph (complete);
  2. sends 20 requests with a wrong token beside 20 without the header: none forced, the same status, body bytes and
     header set (Date and Keep-Alive aside);
  3. starts a capture of 20 requests of one name while several threads load several endpoints (some of whose paths
     the name's route also matches, such as /owners/find for /owners/{ownerId}): exactly 20 captured, all of that
     name, each complete with its graph, none of another name.
Prints the figures and PASS/FAIL per goal; exits non-zero when a goal fails. Python 3 standard library only.

  benchmarks/ondemand-goals.py /tmp/pc/petclinic.jar [--port 18080] [--java java] [--keep-log run.log]

Build the jar with benchmarks/startup/petclinic-build.sh (or any PetClinic packaged with the spanprofile starter).
"""
import argparse
import http.client
import json
import os
import secrets
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

CAPTURED = "http get /owners/{ownerId}"
# The mixed load: the captured name's requests, requests whose path the route {ownerId} also matches but that other
# routes serve, and other endpoints.
MIX = ["/owners/%d" % i for i in range(1, 11)] + ["/owners/find", "/owners/new", "/owners?lastName=", "/vets.html",
                                                  "/", "/owners?lastName=Davis"]
# Headers whose values differ from one response to the next whatever the request.
USUAL = {"date", "keep-alive", "connection"}


class Client:
    def __init__(self, port):
        self.port = port

    def request(self, method, path, headers=None, body=None, timeout=60):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            start = time.perf_counter()
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            data = response.read()
            elapsed = time.perf_counter() - start
            return response.status, response.getheaders(), data, elapsed
        finally:
            connection.close()

    def json(self, method, path, body=None):
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        status, _, data, _ = self.request(method, path, headers, body)
        if status != 200:
            raise RuntimeError("%s %s: %d %s" % (method, path, status, data[:300]))
        return json.loads(data)

    def spans(self):
        return self.json("GET", "/actuator/spanprofile?limit=100000")["spans"]


def header(headers, name):
    values = [value for key, value in headers if key.lower() == name.lower()]
    return values[0] if values else None


def start(args, token):
    command = [args.java, "-jar", args.jar, "--server.port=%d" % args.port,
               "--management.tracing.sampling.probability=0.1",
               "--management.endpoints.web.exposure.include=health,spanprofile",
               "--spanprofile.on-demand.enabled=true", "--spanprofile.on-demand.token=" + token,
               "--spanprofile.on-demand.max-per-minute=60"] + args.app_arg
    log = open(args.keep_log, "w")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    client = Client(args.port)
    deadline = time.time() + args.start_timeout
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the application stopped (exit %d), see %s" % (process.returncode, args.keep_log))
        try:
            if client.request("GET", "/actuator/health", timeout=5)[0] == 200:
                return process, client
        except OSError:
            pass
        time.sleep(1)
    process.terminate()
    raise RuntimeError("the application did not answer within %d s, see %s" % (args.start_timeout, args.keep_log))


def profile(client, span_id):
    """The span's graph, once complete (at most 10 s)."""
    return client.json("GET", "/actuator/spanprofile/%s?await=10s" % span_id)


def figures(graphs):
    """Each graph's span: its duration, its CPU samples and the time its waits took."""
    if not graphs:
        return "none"
    spans = [graph["span"] for graph in graphs]
    durations = [span["durationMillis"] for span in spans]
    cpu = [(span.get("samplesByEvent") or {}).get("cpu", span["samples"]) for span in spans]
    waits = [span.get("waitMillis") or 0.0 for span in spans]
    with_samples = sum(1 for graph in graphs if graph["samples"] > 0)
    return ("durations median %.1f ms (min %.1f, max %.1f); cpu samples %d in all (%d to %d a request); waits "
            "recorded %.0f ms in all; %d graphs with samples of their own, %d empty") % (
        statistics.median(durations), min(durations), max(durations), sum(cpu), min(cpu), max(cpu), sum(waits),
        with_samples, len(graphs) - with_samples)


def goal_forced(client, token, results):
    answers = []
    for i in range(20):
        status, headers, _, elapsed = client.request("GET", "/owners/%d" % (i % 10 + 1), {"X-Spanprofile": token})
        answers.append((status, header(headers, "Server-Timing"), header(headers, "Link"), elapsed))
    ids = []
    for status, timing, link, _ in answers:
        if status == 200 and timing and timing.startswith('spanprofile;desc="') and len(timing) == 35:
            ids.append(timing[len('spanprofile;desc="'):-1])
    with_link = sum(1 for _, timing, link, _ in answers if link and link.startswith("</actuator/spanprofile/"))
    graphs = [profile(client, span_id) for span_id in ids]
    complete = sum(1 for graph in graphs if graph["span"]["complete"])
    pages = sum(1 for span_id in ids
                if client.request("GET", "/actuator/spanprofile/%s?format=html" % span_id)[0] == 200)
    listed = {span["spanId"]: span for span in client.spans()}
    forced_listed = sum(1 for span_id in ids if span_id in listed and listed[span_id]["forced"]
                        and listed[span_id]["retainedAs"] == "forced")
    names = sorted({listed[span_id]["name"] for span_id in ids if span_id in listed})
    print("1. right token: %d of 20 answered with Server-Timing and a span id, %d with a Link; %d of them listed as "
          "forced (retainedAs forced), %d complete, %d HTML pages served; names %s; %s; forced requests' latency "
          "median %.1f ms as the client saw it" % (
              len(ids), with_link, forced_listed, complete, pages, names, figures(graphs),
              1000 * statistics.median(a[3] for a in answers)))
    results["1. 20 of 20 forced, listed, with graph and Server-Timing"] = (
        len(ids) == 20 and with_link == 20 and forced_listed == 20 and complete == 20 and pages == 20)


def comparable(headers):
    return sorted((key.lower(), value) for key, value in headers if key.lower() not in USUAL)


def goal_wrong_token(client, results):
    forced_before = {span["spanId"] for span in client.spans() if span["forced"]}
    same = 0
    differences = []
    plain_times, wrong_times = [], []
    for i in range(20):
        path = "/owners/%d" % (i % 10 + 1)
        plain = client.request("GET", path)
        wrong = client.request("GET", path, {"X-Spanprofile": "not-the-token-%d" % i})
        plain_times.append(plain[3])
        wrong_times.append(wrong[3])
        if plain[0] == wrong[0] and plain[2] == wrong[2] and comparable(plain[1]) == comparable(wrong[1]):
            same += 1
        else:
            differences.append((path, plain[0], wrong[0], len(plain[2]), len(wrong[2]),
                                set(comparable(plain[1])) ^ set(comparable(wrong[1]))))
    time.sleep(0.5)
    forced_after = {span["spanId"] for span in client.spans() if span["forced"]}
    newly_forced = len(forced_after - forced_before)
    print("2. wrong token: %d of 20 responses identical to the unprofiled one (status, body bytes, headers but %s); "
          "%d newly forced; latency median %.1f ms without the header, %.1f ms with a wrong one" % (
              same, "/".join(sorted(USUAL)), newly_forced, 1000 * statistics.median(plain_times),
              1000 * statistics.median(wrong_times)))
    for difference in differences[:5]:
        print("   differs:", difference)
    results["2. wrong token: none forced, responses identical"] = same == 20 and newly_forced == 0


def goal_capture(client, results, threads, seconds):
    forced_before = {span["spanId"] for span in client.spans() if span["forced"]}
    started = client.json("POST", "/actuator/spanprofile", {"capture": CAPTURED, "count": 20, "within": "10m"})
    print("3. capture started:", json.dumps(started["capture"]))
    sent = {path: 0 for path in MIX}
    errors = []
    stop = threading.Event()
    lock = threading.Lock()

    def load(offset):
        local = Client(client.port)
        i = offset
        while not stop.is_set():
            path = MIX[i % len(MIX)]
            i += 1
            try:
                status = local.request("GET", path)[0]
                if status >= 500:
                    errors.append((path, status))
            except OSError as ex:
                errors.append((path, str(ex)))
            with lock:
                sent[path] += 1

    workers = [threading.Thread(target=load, args=(k * 3,), daemon=True) for k in range(threads)]
    began = time.time()
    for worker in workers:
        worker.start()
    # Load on until the capture has its requests, then as long again so that requests after it are not taken.
    while time.time() - began < seconds:
        captures = client.json("GET", "/actuator/spanprofile?limit=1").get("captures", [])
        if not captures:
            break
        time.sleep(0.2)
    ended = time.time() - began
    time.sleep(min(ended, 5))
    stop.set()
    for worker in workers:
        worker.join()
    time.sleep(0.5)
    spans = client.spans()
    captured = [span for span in spans if span.get("captured") == CAPTURED]
    of_name = [span for span in captured if span["name"] == CAPTURED]
    other = [span for span in spans if span["forced"] and span["spanId"] not in forced_before
             and span["name"] != CAPTURED]
    graphs = [profile(client, span["spanId"]) for span in captured]
    complete = sum(1 for graph in graphs if graph["span"]["complete"])
    owners = sum(count for path, count in sent.items() if path.startswith("/owners/") and path[8:].isdigit())
    print("   load: %d threads, %d requests in %.1f s (%d of them GET /owners/{id}; %d of /owners/find and "
          "/owners/new, which the route also matches); capture done after %.1f s; %d errors" % (
              threads, sum(sent.values()), time.time() - began, owners, sent["/owners/find"] + sent["/owners/new"],
              ended, len(errors)))
    print("   kept: %d captured, %d of them named %r, %d complete; forced spans of another name: %d %s; %s" % (
              len(captured), len(of_name), CAPTURED, complete, len(other),
              sorted({span["name"] for span in other}), figures(graphs)))
    results["3. capture: exactly 20 of the name, none of another"] = (
        len(captured) == 20 and len(of_name) == 20 and complete == 20 and not other and not errors)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("jar")
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--java", default="java")
    parser.add_argument("--keep-log", default="ondemand-goals-app.log")
    parser.add_argument("--start-timeout", type=int, default=300)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--load-seconds", type=int, default=60)
    parser.add_argument("--app-arg", action="append", default=[], help="one more argument for the application")
    args = parser.parse_args()
    token = secrets.token_urlsafe(24)
    process, client = start(args, token)
    results = {}
    try:
        # Warm up: the first requests of each endpoint load classes and templates.
        for _ in range(3):
            for path in MIX:
                client.request("GET", path)
        goal_forced(client, token, results)
        goal_wrong_token(client, results)
        goal_capture(client, results, args.threads, args.load_seconds)
    finally:
        process.terminate()
        process.wait(30)
    for goal, passed in results.items():
        print("%s %s" % ("PASS" if passed else "FAIL", goal))
    return 0 if results and all(results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
