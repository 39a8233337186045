# Boot's /actuator/startup ($boot) against spanprofile's startup timeline (the input): each bean's instantiation
# step paired by bean name and, for a bean made more than once, by the order they began.
def seconds: capture("PT((?<h>[0-9]+)H)?((?<m>[0-9]+)M)?((?<s>[0-9.]+)S)?")
  | ((.h // "0" | tonumber) * 3600 + (.m // "0" | tonumber) * 60 + (.s // "0" | tonumber));
def numbered: sort_by(.start) | group_by(.bean) | map(to_entries | map(.value + {n: .key})) | add // [];
($boot[0].timeline.events | map(select(.startupStep.name == "spring.beans.instantiate")
   | {bean: ([.startupStep.tags[] | select(.key == "beanName") | .value][0]), start: .startTime,
      ms: (.duration | seconds * 1000)}) | numbered) as $b
| ([.timeline[] | select(.name == "spring.beans.instantiate") | {bean: .detail, start: .startMillis, ms: .durationMillis}]
   | numbered | map({key: "\(.bean)#\(.n)", value: .ms}) | from_entries) as $ours
| [$b[] | {bean, boot: .ms, ours: $ours["\(.bean)#\(.n)"]}] as $pairs
| [$pairs[] | select(.ours != null) | . + {diff: ((.boot - .ours) | fabs)}] as $both
| {bootBeans: ($b | length), ourBeans: ($ours | length), bootBeansMissingFromOurs: [$pairs[] | select(.ours == null) | .bean],
   maxDifferenceMillis: ([$both[] | .diff] | max), meanDifferenceMillis: ([$both[] | .diff] | add / length),
   oneMillisecondOrMoreApart: [$both[] | select(.diff >= 1)]}
