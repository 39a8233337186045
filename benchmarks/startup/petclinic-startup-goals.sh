#!/usr/bin/env bash
# The startup page's goals on the real Spring PetClinic (issue 50), rerunnable:
#   petclinic-startup-goals.sh <output folder of petclinic-build.sh> [java options…]
# Starts petclinic.jar's classes through BufferingStartupLauncher (Boot's BufferingApplicationStartup, so that
# /actuator/startup has the start too), then compares:
#  1. every bean's instantiation step on /actuator/spanprofile/startup/timeline?format=json with Boot's
#     /actuator/startup duration for it (the largest difference, and the beans 1 ms apart or more);
#  2. the steps' own times added up against Boot's "Started … in N seconds";
#  3. the 10 beans with the most own time: each with a kept graph, the share of its own time its CPU samples
#     and recorded waits account for, and beside it that share with its measured wait for a core added.
# Set PREPEND_CLASSPATH to put classes ahead of the jar's (e.g. a worktree's core/target/classes), SCREENSHOT to a
# .png path for a picture of the timeline page (headless chromium).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"; dir="$(cd "$1" && pwd)"; shift
work="$dir/startup-goals"; port=18081; url="http://127.0.0.1:$port/actuator"
rm -rf "$work" && mkdir -p "$work/exploded" "$work/launcher"
(cd "$work/exploded" && unzip -q "$dir/petclinic.jar")
javac -d "$work/launcher" -cp "$work/exploded/BOOT-INF/lib/*" "$here/BufferingStartupLauncher.java"
main="$(sed -n 's/^Start-Class: *//p' "$work/exploded/META-INF/MANIFEST.MF" | tr -d '\r')"
java "$@" -Dlauncher.main="$main" -cp "${PREPEND_CLASSPATH:+$PREPEND_CLASSPATH:}$work/launcher:$work/exploded/BOOT-INF/classes:$work/exploded/BOOT-INF/lib/*" \
  BufferingStartupLauncher --server.port=$port --management.endpoints.web.exposure.include=startup,spanprofile \
  > "$work/app.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
until started="$(grep -m1 -o 'Started [A-Za-z]* in [0-9.]* seconds' "$work/app.log")"; do
  kill -0 $pid 2>/dev/null || { echo "the application stopped: see $work/app.log" >&2; exit 1; }
  sleep 1
done
until curl -sf "$url/startup" > "$work/boot.json"; do sleep 1; done
curl -sf "$url/spanprofile/startup/timeline?format=json" > "$work/timeline.json"
started_ms="$(echo "$started" | awk '{ printf "%.3f", $4 * 1000 }')"
echo "$started (load average $(cut -d' ' -f1-3 /proc/loadavg))"

if [ -n "${SCREENSHOT:-}" ]; then
  chromium --headless --no-sandbox --hide-scrollbars --window-size=2400,1300 --screenshot="$SCREENSHOT" \
    "$url/spanprofile/startup/timeline?format=html" 2>/dev/null
fi
echo "1. Bean instantiation steps, Boot's /actuator/startup against ours"
jq --slurpfile boot "$work/boot.json" -f "$here/compare-beans.jq" "$work/timeline.json"

echo "2. The steps' own times added up, against Boot's \"Started in\""
jq --argjson started "$started_ms" '
  ([.timeline[] | select(.thread == "main") | .ownMillis] | add) as $main | ([.timeline[] | .ownMillis] | add) as $all
  | {startedMillis: $started, ownOnMainThreadMillis: $main, ownAllThreadsMillis: $all,
     mainOverStarted: ($main / $started), allOverStarted: ($all / $started)}' "$work/timeline.json"

echo "3. The 10 beans with the most own time: their graphs' samples against their own time"
jq -c '[.timeline[] | select(.name == "spring.beans.instantiate")] | sort_by(-.ownMillis) | .[:10][]
  | {bean: .detail, ownMillis, cpuMillis, waitMillis, coreWaitMillis, graph: (.graph != null),
     accounted: (((.cpuMillis + (.waitMillis // 0)) / .ownMillis * 1000 | round) / 1000),
     withCoreWait: (((.cpuMillis + (.waitMillis // 0) + (.coreWaitMillis // 0)) / .ownMillis * 1000 | round) / 1000)}' \
  "$work/timeline.json"
echo "   The whole start's breakdown"
jq -c '.breakdown' "$work/timeline.json"
