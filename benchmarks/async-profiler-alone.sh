#!/usr/bin/env bash
# The peer baseline for docs/benchmarks.md: what async-profiler alone costs the page application, with spanprofile
# switched off. One JVM; async-profiler is loaded with jcmd and started and stopped between pairs of windows, as
# SwitchProbe switches spanprofile. Needs wrk (the Debian package) on the PATH.
#
#   benchmarks/async-profiler-alone.sh [pairs] [async-profiler options]
#   benchmarks/async-profiler-alone.sh 10 event=cpu,interval=10000000
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-10}
options=${2:-event=cpu,interval=10000000}
./mvnw -q -B -ntp -pl benchmarks -am package -DskipTests
out=benchmarks/target/async-profiler-alone
rm -rf "$out" && mkdir -p "$out"
jar=$(tr ':' '\n' < benchmarks/target/benchmark-classpath.txt | grep '/async-profiler-[0-9.]*\.jar$' | head -1)
(cd "$out" && unzip -q -o "$jar" linux-x64/libasyncProfiler.so)
library=$PWD/$out/linux-x64/libasyncProfiler.so
port=$((20000 + RANDOM % 10000))
java -Xms512m -Xmx512m -cp "benchmarks/target/classes:$(cat benchmarks/target/benchmark-classpath.txt)" \
  dev.spanprofile.benchmarks.overhead.pages.PageApplication --server.address=127.0.0.1 --server.port=$port \
  --spring.main.banner-mode=off --server.tomcat.max-keep-alive-requests=-1 \
  --management.tracing.sampling.probability=1.0 --management.otlp.metrics.export.enabled=false \
  --logging.level.root=WARN --spanprofile.enabled=false > "$out/app.log" 2>&1 &
app=$!
trap 'kill $app 2>/dev/null || true' EXIT
url="http://127.0.0.1:$port/owners?lastName=M"
for _ in $(seq 1 60); do curl -s -o /dev/null "$url" && break; sleep 1; done
ticks() { awk '{print $14 + $15}' "/proc/$app/stat"; }
# jcmd reads name=value pairs itself: the agent's options go through quoted.
profiler() { jcmd "$app" JVMTI.agent_load "$library" "\"$1\"" >> "$out/jcmd.log"; }
echo "warming up for 60 s"
wrk -t2 -c4 -d60s "$url" > /dev/null
for pair in $(seq 1 "$pairs"); do
  for state in on off; do
    if [ "$state" = on ]; then profiler "start,jfr,clock=monotonic,$options,file=$PWD/$out/recording.jfr"; else profiler stop; fi
    wrk -t2 -c4 -d4s "$url" > /dev/null   # settle: the JIT recompiles after every start and stop
    before=$(ticks)
    requests=$(wrk -t2 -c4 -d5s "$url" | awk '/requests in/ {print $1}')
    echo "$state $pair $requests $(( $(ticks) - before ))" | tee -a "$out/windows.txt"
  done
done
python3 - "$out/windows.txt" "$(getconf CLK_TCK)" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
tick = 1 / int(sys.argv[2])
on = {r[1]: (int(r[2]), int(r[3])) for r in rows if r[0] == 'on'}
off = {r[1]: (int(r[2]), int(r[3])) for r in rows if r[0] == 'off'}
pairs = [p for p in on if p in off]
cpu = [(on[p][1] / on[p][0]) / (off[p][1] / off[p][0]) for p in pairs]
throughput = [on[p][0] / off[p][0] for p in pairs]
print('CPU per request on/off %.3f [%.3f..%.3f], throughput %.3f [%.3f..%.3f], %d pairs' % (
    statistics.median(cpu), min(cpu), max(cpu), statistics.median(throughput), min(throughput), max(throughput), len(pairs)))
print('CPU per request, µs: on %.0f, off %.0f (medians)' % (
    statistics.median(on[p][1] * tick / on[p][0] * 1e6 for p in pairs),
    statistics.median(off[p][1] * tick / off[p][0] * 1e6 for p in pairs)))
PY
