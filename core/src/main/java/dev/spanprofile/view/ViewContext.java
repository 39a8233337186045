package dev.spanprofile.view;

import java.time.Duration;

import java.util.Set;

import dev.spanprofile.EngineStatus;
import dev.spanprofile.SpanProfiler;
import dev.spanprofile.cgroup.ThrottlingHistory;
import dev.spanprofile.attribution.AttributionStats;
import dev.spanprofile.render.CpuShare;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.render.ProfilerWork;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanCpuTime;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.tracking.MonotonicEpoch;

/**
 * The profiler as one view sees it: the time, how far samples are collected and the
 * engine's state are read once, so that every part of a response tells the same story.
 */
final class ViewContext {

	private final SpanProfiler profiler;

	private final FrameClassifier classifier;

	private final long now = MonotonicEpoch.nowEpochNanos();

	private final long completeUpTo;

	private final EngineStatus status;

	ViewContext(SpanProfiler profiler, FrameClassifier classifier) {
		this.profiler = profiler;
		this.classifier = classifier;
		this.completeUpTo = profiler.completeUpToEpochNanos();
		this.status = profiler.status();
	}

	long now() {
		return this.now;
	}

	EngineStatus status() {
		return this.status;
	}

	FrameTable frames() {
		return this.profiler.store().frames();
	}

	FrameClassifier classifier() {
		return this.classifier;
	}

	boolean rootSpanOnly() {
		return this.profiler.settings().store().rootSpanOnly();
	}

	Set<SampleKind> sampledKinds() {
		return this.profiler.settings().sampler().kinds();
	}

	/** Whether the start's steps have waits: sampled while it ran, not only since. */
	boolean startupWaitsSampled() {
		return this.profiler.startupRecordsWaits() && sampledKinds().contains(SampleKind.WAIT);
	}

	double intervalMillis() {
		return this.profiler.settings().sampler().interval().toNanos() / 1_000_000.0;
	}

	/** How far back the span-name aggregates reach. */
	Duration aggregateWindow() {
		return this.profiler.settings().aggregate().window();
	}

	long intervalNanos() {
		return this.profiler.settings().sampler().interval().toNanos();
	}

	/**
	 * pprof's period: the sampling interval, bytes between allocation samples, or the
	 * lock threshold.
	 */
	long periodOf(SampleKind kind) {
		SamplerSettings sampler = this.profiler.settings().sampler();
		return switch (kind) {
			case ALLOC -> sampler.allocInterval();
			case LOCK -> sampler.lockThreshold().toNanos();
			case WAIT -> sampler.waits() ? sampler.waitThreshold().toNanos() : 0;
			default -> sampler.interval().toNanos();
		};
	}

	/**
	 * The profiled span's CPU time; read once per response and handed to
	 * {@link #cpuShare} and {@link #timeBreakdown}, so that both state the same figure.
	 */
	SpanCpuTime cpuTime(SpanRecord profiled) {
		if (!sampledKinds().contains(SampleKind.CPU)) {
			return SpanCpuTime.NOT_SAMPLED;
		}
		ProfilerWork work = ProfilerWork.split(recordedSamplesOf(profiled, SampleKind.CPU), frames());
		return SpanCpuTime.of(profiled, work.application().totalSamples(), work.profiler(), intervalNanos());
	}

	/**
	 * The profiled span's CPU time against its duration, or {@code null} when CPU is not
	 * sampled.
	 */
	CpuShare cpuShare(SpanRecord profiled, SpanCpuTime cpu) {
		return (cpu.nanos() >= 0) ? new CpuShare(cpu.nanos() / 1e6, profiled.durationNanos(this.now) / 1e6) : null;
	}

	/**
	 * Whether every sample up to the span's end has been joined (samples arrive about one
	 * dump interval late).
	 */
	boolean isComplete(SpanRecord record) {
		return !record.inFlight() && record.endEpochNanos() <= this.completeUpTo;
	}

	/** The samples a span's row shows: of the primary kind (cpu when sampled). */
	StackTree samplesOf(SpanRecord record) {
		return samplesOf(record, this.profiler.settings().sampler().primaryKind());
	}

	/**
	 * The samples of {@code kind} a span's graph shows: with its local descendants'
	 * unless attribution is root-only, and, for CPU and wall samples, without those the
	 * profiler's own code took ({@link ProfilerWork}).
	 */
	StackTree samplesOf(SpanRecord record, SampleKind kind) {
		StackTree samples = recordedSamplesOf(record, kind);
		return kind.counted() ? ProfilerWork.split(samples, frames()).application() : samples;
	}

	/**
	 * As {@link #samplesOf(SpanRecord, SampleKind)}, only those taken in {@code range}
	 * (waits with their part inside it), from the spans' timelines.
	 */
	StackTree samplesOf(SpanRecord record, SampleKind kind, Stretch.Range range) {
		StackTree samples = rootSpanOnly() ? record.ownSamples(kind, range.fromEpochNanos(), range.toEpochNanos())
				: InclusiveSamples.of(record, kind, range.fromEpochNanos(), range.toEpochNanos());
		return kind.counted() ? ProfilerWork.split(samples, frames()).application() : samples;
	}

	/** Whether the profiled span's breakdown gives waits more of its time than CPU. */
	boolean mostlyWaiting(SpanRecord profiled) {
		return timeBreakdown(profiled, cpuTime(profiled)).mostlyWaiting();
	}

	/**
	 * Whether waits explain more of {@code range} than the CPU samples taken in it do.
	 */
	boolean mostlyWaiting(SpanRecord record, Stretch.Range range) {
		long waits = samplesOf(record, SampleKind.WAIT, range).totalSamples();
		long cpu = sampledKinds().contains(SampleKind.CPU)
				? samplesOf(record, SampleKind.CPU, range).totalSamples() * intervalNanos() : 0;
		return waits > cpu;
	}

	/** The timeline of the profiled span's request, as JSON. */
	TimelineJson timeline(SpanRecord profiled) {
		return RequestTimeline.json(profiled, !rootSpanOnly(), this.now, frames());
	}

	private StackTree recordedSamplesOf(SpanRecord record, SampleKind kind) {
		return rootSpanOnly() ? record.ownSamples(kind) : InclusiveSamples.of(record, kind);
	}

	/**
	 * Where the profiled span's time went: CPU, the profiler's own share, waiting for a
	 * core, each kind of wait, short waits, and what is left unaccounted.
	 */
	TimeBreakdown timeBreakdown(SpanRecord profiled, SpanCpuTime cpu) {
		StackTree waits = sampledKinds().contains(SampleKind.WAIT) ? samplesOf(profiled, SampleKind.WAIT) : null;
		long interval = intervalNanos();
		return TimeBreakdown
			.of(profiled.durationNanos(this.now), cpu.nanos(), cpu.measured(), cpu.profilerNanos(), cpu.runQueueNanos(),
					cpu.blockedNanos(), waits, frames())
			.cpuSamples((interval > 0) ? cpu.nanos() / interval : -1, interval)
			.withThrottling(throttling(profiled))
			.withCoreWaitBefore(profiled.isLocalRoot() ? profiled.measuredCpu().runQueueBeforeNanos() : -1)
			.withHandOff(this.profiler.handOffHint(), interval);
	}

	/**
	 * The profiled request's parts as its name's aggregates add them up, to compare with
	 * them: the profiler's own CPU stays in the CPU, as it does when a request is folded.
	 */
	TimeBreakdown foldedBreakdown(SpanRecord profiled, SpanCpuTime cpu) {
		StackTree waits = sampledKinds().contains(SampleKind.WAIT) ? samplesOf(profiled, SampleKind.WAIT) : null;
		long cpuNanos = (cpu.nanos() >= 0) ? cpu.nanos() + cpu.profilerNanos() : -1;
		return TimeBreakdown.of(profiled.durationNanos(this.now), cpuNanos, cpu.measured(), 0, cpu.runQueueNanos(),
				cpu.blockedNanos(), waits, frames());
	}

	/** The container's CPU throttling around the span, or {@code null}. */
	private TimeBreakdown.Throttling throttling(SpanRecord profiled) {
		ThrottlingHistory.Throttled throttled = this.profiler.throttling()
			.during(profiled.startEpochNanos(), profiled.inFlight() ? this.now : profiled.endEpochNanos());
		return (throttled != null)
				? new TimeBreakdown.Throttling(throttled.periods(), throttled.nanos(), throttled.overNanos()) : null;
	}

	String displayName(SpanRecord record, StackTree samples) {
		return SpanNames.display(record, samples, frames(), this.classifier);
	}

	SpanJson describe(SpanRecord record) {
		SpanJson span = SpanDescriptions.describe(record, this.now, this.completeUpTo, !rootSpanOnly(), sampledKinds());
		return firstAfterStart(record) ? span.asFirstAfterStart() : span;
	}

	/**
	 * Whether {@code record} is the first request of its name after the start, kept with
	 * the start's profile.
	 */
	boolean firstAfterStart(SpanRecord record) {
		StartupRecording startup = this.profiler.startup();
		return startup != null && startup.firstRequests().holds(record);
	}

	/**
	 * Why the span's graph of {@code kind} is empty, or {@code null} when it has samples.
	 */
	String emptyReason(SpanRecord profiled, SampleKind kind, long samples) {
		return EmptyProfiles.explain(profiled, kind, samples, isComplete(profiled), this.status,
				this.profiler.settings().sampler(), this.profiler.settings().dumpInterval().toMillis(), this.now);
	}

	/** Why the span's profile is empty, or {@code null} when it has samples. */
	String emptyReason(SpanRecord profiled, long samples) {
		return EmptyProfiles.explain(profiled, samples, isComplete(profiled), this.status, intervalMillis(),
				this.profiler.settings().dumpInterval().toMillis(), this.now);
	}

	/** The engine's state, which heads every JSON response. */
	EngineJson engine() {
		AttributionStats stats = this.profiler.attributionStats();
		return new EngineJson(
				new EngineState(this.status.engine(), this.status.event(), intervalMillis(), this.status.running(),
						this.status.problem(), this.status.note(), rootSpanOnly()),
				new EngineJson.Samples(stats.attributed(), stats.outsideSpans(), stats.unknown()));
	}

}
