package dev.spanprofile.slowlog;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.spanprofile.cgroup.ThrottlingHistory;
import dev.spanprofile.render.CpuShare;
import dev.spanprofile.render.FrameNames;
import dev.spanprofile.render.ProfilerWork;
import dev.spanprofile.render.SelfTime;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanCpuTime;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;

/**
 * The one line that tells, where people already look, why a request was slow: how long,
 * how much of it on CPU, where the time went, and where the whole flame graph is.
 */
final class SlowSpanLine {

	private static final int TOP = 3;

	private SlowSpanLine() {
	}

	static String describe(SpanRecord root, FrameTable frames, Set<SampleKind> kinds, Duration interval,
			String flameGraphPath) {
		return describe(root, frames, kinds, interval, flameGraphPath, ThrottlingHistory.NONE);
	}

	/**
	 * As {@link #describe(SpanRecord, FrameTable, Set, Duration, String)}, saying when
	 * the container's CPU limit throttled the process around the request.
	 */
	static String describe(SpanRecord root, FrameTable frames, Set<SampleKind> kinds, Duration interval,
			String flameGraphPath, ThrottlingHistory throttling) {
		long durationNanos = root.durationNanos(root.endEpochNanos());
		double durationMillis = durationNanos / 1_000_000.0;
		StringBuilder line = new StringBuilder("spanprofile: slow request \"").append(root.name())
			.append("\" took ")
			.append(millis(durationMillis));
		boolean waits = kinds.contains(SampleKind.WAIT);
		ProfilerWork cpuWork = ProfilerWork.split(InclusiveSamples.of(root, SampleKind.CPU), frames);
		SpanCpuTime cpuTime = kinds.contains(SampleKind.CPU)
				? SpanCpuTime.of(root, cpuWork.application().totalSamples(), cpuWork.profiler(), interval.toNanos())
				: SpanCpuTime.NOT_SAMPLED;
		if (waits) {
			// Where the time went comes first: it answers "why slow" before any flame
			// graph does.
			TimeBreakdown breakdown = TimeBreakdown
				.of(durationNanos, cpuTime.nanos(), cpuTime.measured(), cpuTime.profilerNanos(),
						cpuTime.runQueueNanos(), cpuTime.blockedNanos(), InclusiveSamples.of(root, SampleKind.WAIT),
						frames)
				.withThrottling(throttled(throttling, root))
				.withCoreWaitBefore(root.measuredCpu().runQueueBeforeNanos());
			line.append("; time: ").append(breakdown.summary(SlowSpanLine::millis));
		}
		for (SampleKind kind : kinds) {
			if (kind == SampleKind.WAIT) {
				continue;
			}
			StackTree samples = (kind == SampleKind.CPU) ? cpuWork.application()
					: kind.counted() ? ProfilerWork.split(InclusiveSamples.of(root, kind), frames).application()
							: InclusiveSamples.of(root, kind);
			long total = samples.totalSamples();
			if (kind == SampleKind.CPU) {
				if (!waits) {
					CpuShare share = new CpuShare(cpuTime.nanos() / 1e6, durationMillis);
					line.append("; CPU ")
						.append(millis(share.cpuMillis()))
						.append(" of ")
						.append(millis(durationMillis));
					if (!kinds.contains(SampleKind.WALL) && share.mostlyOffCpu()) {
						// The answer is in the waiting, which CPU samples do not see.
						line.append(
								" (mostly off-CPU: sample wall too, spanprofile.event=cpu,wall, to see where it waited)");
					}
				}
			}
			else {
				line.append("; ").append(kind.id()).append(" samples ").append(total);
			}
			List<SelfTime.Entry> top = SelfTime.top(samples, frames, TOP);
			if (!top.isEmpty()) {
				line.append((kind == SampleKind.CPU && waits) ? "; top " : ", top ")
					.append(kind.id())
					.append(" self time:");
				for (int i = 0; i < top.size(); i++) {
					SelfTime.Entry entry = top.get(i);
					line.append((i == 0) ? " " : ", ")
						.append(String.format(Locale.ROOT, "%.0f%%", 100.0 * entry.samples() / total))
						.append(' ')
						.append(FrameNames.shortName(entry.frame()));
				}
			}
		}
		String base = flameGraphPath.endsWith("/") ? flameGraphPath : flameGraphPath + "/";
		return line.append("; flame graph: ").append(base).append(root.spanId()).toString();
	}

	/**
	 * Without digit grouping: log lines are read by grep and parsers as much as by
	 * people.
	 */
	private static String millis(double millis) {
		return String.format(Locale.ROOT, (millis >= 100) ? "%.0f ms" : "%.1f ms", millis);
	}

	/** The container's CPU throttling around {@code root}, or {@code null}. */
	static TimeBreakdown.Throttling throttled(ThrottlingHistory history, SpanRecord root) {
		ThrottlingHistory.Throttled throttled = history.during(root.startEpochNanos(), root.endEpochNanos());
		return (throttled != null)
				? new TimeBreakdown.Throttling(throttled.periods(), throttled.nanos(), throttled.overNanos()) : null;
	}

}
