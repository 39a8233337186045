#!/usr/bin/env bash
# Where the starter's extra start time goes: starts the real Spring PetClinic without the starter and with it under
# several sets of java options, one start of each per round (the order rotating from round to round, so that a shared
# machine's load falls on all alike), and prints for each variant the ratios to the round's start without the starter
# ("Started … in N seconds" and the process's CPU when that line appeared: median and quartiles) and the median CPU of
# its threads by kind (main, C2, C1, GC, spanprofile's collector, Flight Recorder, the rest) at that moment.
#   petclinic-start-variants.sh <output folder of petclinic-build.sh> <rounds> <name>=<java options>…
# e.g. petclinic-start-variants.sh /tmp/pc 6 default= nowaits=-Dspanprofile.startup.waits=false \
#        nodebug='-XX:+UnlockDiagnosticVMOptions -XX:-DebugNonSafepoints'
# A name starting with "plain-" runs petclinic-plain.jar with its options (say, an -agentpath), one starting with
# "otel" petclinic-otel.jar (PetClinic with only the tracing the starter brings). The start without the starter and
# without options is always there, as "plain".
set -euo pipefail
dir="$(cd "$1" && pwd)"; rounds="$2"; shift 2
port=18091; ticks="$(getconf CLK_TCK)"; out="$dir/start-variants"; mkdir -p "$out"
names=(plain); opts=("")
for spec in "$@"; do names+=("${spec%%=*}"); opts+=("${spec#*=}"); done
# CPU seconds of the process's threads by kind, then of the whole process: "main c2 c1 gc collector jfr other total".
# The thread that runs main() keeps the launcher's name, "java" (with the launcher's own, idle, thread).
threads_cpu() {
  local pid="$1" task comm
  for task in /proc/"$pid"/task/*; do
    comm="$(cat "$task/comm" 2>/dev/null)" || continue
    sed 's/.*) //' "$task/stat" 2>/dev/null | awk -v c="$comm" -v t="$ticks" '{ printf "%s\t%.3f\n", c, ($12 + $13) / t }'
  done | awk -F'\t' -v total="$(awk -v t="$ticks" '{ print ($14 + $15) / t }' /proc/"$pid"/stat)" '
    { k = "other" }
    $1 == "java" { k = "main" } $1 ~ /^C2 / { k = "c2" } $1 ~ /^C1 / { k = "c1" }
    $1 ~ /^(GC |G1 |VM Thread|VM Periodic)/ { k = "gc" } $1 ~ /^spanprofile/ { k = "collector" } $1 ~ /^JFR/ { k = "jfr" }
    { s[k] += $2 }
    END { printf "%.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f\n", s["main"], s["c2"], s["c1"], s["gc"], s["collector"], s["jfr"], s["other"], total }'
}
start_once() { # <jar> <log> [java options…]: prints "<started seconds> <cpu by kind…>"
  local jar="$1" log="$2"; shift 2
  java "$@" -jar "$jar" --server.port=$port > "$log" 2>&1 &
  local pid=$! line=""
  for _ in $(seq 1 6000); do
    line="$(grep -m1 -o 'Started [A-Za-z]* in [0-9.]* seconds' "$log" || true)"
    [ -n "$line" ] && break
    kill -0 $pid 2>/dev/null || { echo "the application stopped: see $log" >&2; exit 1; }
    sleep 0.05
  done
  local cpu; cpu="$(threads_cpu $pid)"
  kill $pid; wait $pid 2>/dev/null || true
  echo "$(echo "$line" | awk '{ print $4 }') $cpu"
}
results="$out/starts.csv"; : > "$results"
echo "round,variant,started_s,main,c2,c1,gc,collector,jfr,other,cpu_s,load1" | tee "$results"
n=${#names[@]}
for r in $(seq 1 "$rounds"); do
  for j in $(seq 0 $((n - 1))); do
    i=$(( (j + r - 1) % n )); name="${names[$i]}"
    jar="$dir/petclinic.jar"; [[ "$name" == plain* ]] && jar="$dir/petclinic-plain.jar"
    [[ "$name" == otel* ]] && jar="$dir/petclinic-otel.jar"
    # shellcheck disable=SC2086 # the options are words
    read -r started main c2 c1 gc coll jfr other cpu < <(start_once "$jar" "$out/$name-$r.log" ${opts[$i]})
    load="$(cut -d' ' -f1 /proc/loadavg)"
    echo "$r,$name,$started,$main,$c2,$c1,$gc,$coll,$jfr,$other,$cpu,$load" | tee -a "$results"
  done
done
awk -F, '
  function q(a, n, p,   i, j, t, k) { for (i=1;i<=n;i++) t[i]=a[i]; for (i=1;i<=n;i++) for (j=i+1;j<=n;j++) if (t[j]<t[i]) { k=t[i]; t[i]=t[j]; t[j]=k }
    k=1+(n-1)*p; i=int(k); return (i>=n) ? t[n] : t[i]+(k-i)*(t[i+1]-t[i]) }
  NR == 1 { next }  # the header
  { row[++rows]=$0; if ($2=="plain") { ps[$1]=$3; pc[$1]=$11 } if (!($2 in seen)) { seen[$2]=1; order[++v]=$2 } }
  END {
    printf "%-14s %-26s %-26s %5s %5s %5s %5s %5s %5s %5s %5s %s\n", "variant", "started in / plain", "CPU / plain", "main", "C2", "C1", "GC", "coll", "JFR", "other", "CPU", "load"
    for (x=1; x<=v; x++) {
      name=order[x]; n=0; delete rs; delete rc; delete c; delete l
      for (i=1; i in row; i++) { split(row[i], f, ","); if (f[2]!=name || !(f[1] in ps)) continue
        n++; rs[n]=f[3]/ps[f[1]]; rc[n]=f[11]/pc[f[1]]; for (k=4; k<=11; k++) { cc[k,n]=f[k] } l[n]=f[12] }
      for (k=4; k<=11; k++) { for (i=1; i<=n; i++) t[i]=cc[k,i]; med[k]=q(t, n, .5) }
      printf "%-14s %.3f [%.3f..%.3f]%4s %.3f [%.3f..%.3f]%4s %5.1f %5.1f %5.1f %5.1f %5.2f %5.2f %5.1f %5.1f %.1f..%.1f (%d)\n", name,
        q(rs,n,.5), q(rs,n,.25), q(rs,n,.75), "", q(rc,n,.5), q(rc,n,.25), q(rc,n,.75), "",
        med[4], med[5], med[6], med[7], med[8], med[9], med[10], med[11], q(l,n,0), q(l,n,1), n
    }
  }' "$results" | tee "$out/summary.txt"
