#!/usr/bin/env python3
"""Ask a railmapd for the matrix of some hosts, then read its events: the HTTP API (docs/api.md) with the
standard library only (urllib, json). A sketch to copy into a launcher, run in CI against a lab daemon
(cli/src/test/java/io/railmap/cli/ApiLabTest.java).

    python3 railmap_api.py --daemon http://127.0.0.1:7246 --hosts a,b [--format jaccl] [--events 1 --type cable-lost]

Standard output: the matrix as the daemon wrote it, then a line "reading events" once the stream is open,
then one line per event read: "TYPE: MESSAGE" (the event's data is JSON: id, type, subjects, message).
Exit codes: 0 done; 1 the daemon answered an error (its sentence is printed on standard error) or could not
be reached; 2 a bad argument; 3 the stream ended or went silent for --timeout seconds before --events came.
"""
import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request


def get(daemon, path, params, timeout):
    """GET path?params; returns the response (a file object), or raises SystemExit(1) with the daemon's sentence."""
    url = daemon.rstrip("/") + path + ("?" + urllib.parse.urlencode(params) if params else "")
    try:
        return urllib.request.urlopen(url, timeout=timeout)
    except urllib.error.HTTPError as e:
        # every error answer is {"error": "<sentence>"} JSON, with "unknown": [nodes] for unknown hosts
        try:
            body = json.loads(e.read().decode("utf-8"))
            sentence = body.get("error", "")
        except ValueError:
            sentence = "(not JSON)"
        print(f"railmap_api: {path}: {e.code}: {sentence}", file=sys.stderr)
        raise SystemExit(1)
    except (urllib.error.URLError, OSError) as e:
        print(f"railmap_api: cannot reach {daemon}: {e}", file=sys.stderr)
        raise SystemExit(1)


def events(response):
    """Yields the data of each server-sent event as a dict (lines 'id:', 'event:', 'data:'; a blank line ends one)."""
    data = []
    for raw in response:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                yield json.loads("\n".join(data))
                data = []
        elif line.startswith("data:"):
            data.append(line[5:].lstrip(" "))
        # 'id:' and 'event:' repeat what the data holds; ': keep-alive' comments come every 15 s


def main():
    parser = argparse.ArgumentParser(description="The matrix of some hosts and the daemon's events, from railmapd's API.")
    parser.add_argument("--daemon", default="http://127.0.0.1:7246", help="the daemon's API (default %(default)s)")
    parser.add_argument("--hosts", required=True, help="NODE,NODE,...: the node of each rank, in order")
    parser.add_argument("--format", default="jaccl", help="a format of railmap matrix (default %(default)s)")
    parser.add_argument("--events", type=int, default=0, help="how many events to read after the matrix (default 0)")
    parser.add_argument("--type", action="append", default=[], help="count only events of this type (repeatable)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds any one read may wait (default %(default)s)")
    args = parser.parse_args()
    if args.events < 0 or args.timeout <= 0:
        parser.error("--events must be 0 or more and --timeout above 0")

    with get(args.daemon, "/v1/matrix", {"hosts": args.hosts, "format": args.format}, args.timeout) as answer:
        sys.stdout.write(answer.read().decode("utf-8"))
    if args.events == 0:
        return 0
    stream = get(args.daemon, "/v1/events", {}, args.timeout)
    print("reading events", flush=True)
    seen = 0
    try:
        for event in events(stream):
            if args.type and event["type"] not in args.type:
                continue
            print(f"{event['type']}: {event['message']}", flush=True)
            seen += 1
            if seen == args.events:
                return 0
    except OSError as e:  # a read that waited --timeout seconds
        print(f"railmap_api: the event stream went silent: {e}", file=sys.stderr)
        return 3
    finally:
        stream.close()
    print("railmap_api: the event stream ended", file=sys.stderr)
    return 3


if __name__ == "__main__":
    sys.exit(main())
