#!/usr/bin/env bash
# The cost of spanprofile on the start of the real Spring PetClinic: starts petclinic.jar (with the starter) and
# petclinic-plain.jar (without) in turn, A,B,A,B… (interleaved, so that a shared machine's load falls on both alike),
# and for each start records Spring Boot's "Started … in N seconds" and the process's CPU time when that line appeared.
#   petclinic-start-cost.sh <output folder of petclinic-build.sh> [pairs=10] [java options…]
# Prints one line a start (CSV) and then the ratios with/without of each pair: median and quartiles.
set -euo pipefail
dir="$(cd "$1" && pwd)"; pairs="${2:-10}"; shift $(( $# >= 2 ? 2 : 1 ))
port=18090; ticks="$(getconf CLK_TCK)"; out="$dir/start-cost"; mkdir -p "$out"
start_once() { # <jar> <log> [java options…]: prints "<started seconds> <cpu seconds>"
  local jar="$1" log="$2"; shift 2
  java "$@" -jar "$jar" --server.port=$port > "$log" 2>&1 &
  local pid=$! line=""
  for _ in $(seq 1 3000); do
    line="$(grep -m1 -o 'Started [A-Za-z]* in [0-9.]* seconds' "$log" || true)"
    [ -n "$line" ] && break
    kill -0 $pid 2>/dev/null || { echo "the application stopped: see $log" >&2; exit 1; }
    sleep 0.1
  done
  # utime + stime of the whole process (every thread), in clock ticks.
  local cpu; cpu="$(awk -v t="$ticks" '{ print ($14 + $15) / t }' /proc/$pid/stat)"
  kill $pid; wait $pid 2>/dev/null || true
  echo "$(echo "$line" | awk '{ print $4 }') $cpu"
}
echo "pair,variant,started_s,cpu_s,load1"
results="$out/starts.csv"; : > "$results"
for i in $(seq 1 "$pairs"); do
  for variant in with without; do
    jar="$dir/petclinic.jar"; [ $variant = without ] && jar="$dir/petclinic-plain.jar"
    read -r started cpu < <(start_once "$jar" "$out/$variant-$i.log" "$@")
    load="$(cut -d' ' -f1 /proc/loadavg)"
    echo "$i,$variant,$started,$cpu,$load" | tee -a "$results"
  done
done
# Ratio with/without of each pair, then the median and quartiles of the ratios.
awk -F, '
  $2=="with" { s[$1]=$3; c[$1]=$4 } $2=="without" { rs[++n]=s[$1]/$3; rc[n]=c[$1]/$4 } { l[++m]=$5 }
  function q(a, n, p,   i, j, t, k) { for (i=1;i<=n;i++) t[i]=a[i]; for (i=1;i<=n;i++) for (j=i+1;j<=n;j++) if (t[j]<t[i]) { k=t[i]; t[i]=t[j]; t[j]=k }
    k=1+(n-1)*p; i=int(k); return (i>=n) ? t[n] : t[i]+(k-i)*(t[i+1]-t[i]) }
  END { printf "started in, with/without: median %.3f, quartiles %.3f..%.3f (%d pairs)\n", q(rs,n,.5), q(rs,n,.25), q(rs,n,.75), n
        printf "CPU of the start, with/without: median %.3f, quartiles %.3f..%.3f\n", q(rc,n,.5), q(rc,n,.25), q(rc,n,.75)
        printf "load average (1 min) over the starts: %.1f..%.1f\n", q(l,m,0), q(l,m,1) }' "$results"
